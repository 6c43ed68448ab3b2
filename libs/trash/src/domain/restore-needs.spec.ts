import { restoreNeeds } from './restore-needs';

describe('restoreNeeds', () => {
  it('an entry needs its list and its parent record; a record its object; a note its record; a task nothing', () => {
    expect(restoreNeeds('entries', { records: [{ id: 'e1', container_id: 'l1', parent_record_id: 'r1' }] })).toEqual({
      records: [{ id: 'r1', what: 'parent record r1' }],
      containers: [{ id: 'l1', what: 'list l1' }],
      threads: [],
    });
    expect(restoreNeeds('records', { records: [{ id: 'r1', container_id: 'o1', parent_record_id: null }] }).containers).toEqual([{ id: 'o1', what: 'object o1' }]);
    expect(restoreNeeds('notes', { notes: [{ id: 'n1', parent_record_id: 'r1' }] }).records).toEqual([{ id: 'r1', what: 'parent record r1' }]);
    expect(restoreNeeds('tasks', { tasks: [{ id: 'k1' }] })).toEqual({ records: [], containers: [], threads: [] });
  });

  it("a reply needs its thread; a head comment brought back with its thread needs the thread's record and entry", () => {
    expect(restoreNeeds('comments', { comments: [{ id: 'c2', thread_id: 't1' }] }).threads).toEqual(['t1']);
    const head = restoreNeeds('comments', { comment_threads: [{ id: 't1', record_id: 'r1', entry_id: 'e1' }], comments: [{ id: 'c1', thread_id: 't1' }] });
    expect(head).toEqual({ records: [{ id: 'r1', what: 'record r1' }, { id: 'e1', what: 'entry e1' }], containers: [], threads: [] });
  });
});
