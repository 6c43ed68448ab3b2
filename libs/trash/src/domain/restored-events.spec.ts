import type { Actor } from '@workbase/shared/kernel';
import { restoredEvents } from './restored-events';

const actor: Actor = { type: 'api-token', id: 'token-1' };
const ws = 'ws-1';

describe('restoredEvents', () => {
  it("a record's restore announces the record, its entries, notes and comments (with their thread's subject)", () => {
    const events = restoredEvents('records', ws, {
      records: [
        { id: 'r1', container_id: 'people', parent_record_id: null },
        { id: 'e1', container_id: 'hiring', parent_record_id: 'r1' },
      ],
      notes: [{ id: 'n1', parent_object_id: 'people', parent_record_id: 'r1' }],
      comment_threads: [{ id: 't1', object_id: 'people', record_id: 'r1', list_id: 'hiring', entry_id: 'e1' }],
      comments: [{ id: 'c1', thread_id: 't1' }],
    }, actor);
    expect(events).toEqual([
      { eventType: 'record.created', workspaceId: ws, id: { workspace_id: ws, object_id: 'people', record_id: 'r1' }, actor },
      { eventType: 'list-entry.created', workspaceId: ws, id: { workspace_id: ws, list_id: 'hiring', entry_id: 'e1' }, actor },
      { eventType: 'note.created', workspaceId: ws, id: { workspace_id: ws, note_id: 'n1' }, actor, payload: { parent_object_id: 'people', parent_record_id: 'r1' } },
      {
        eventType: 'comment.created',
        workspaceId: ws,
        id: { workspace_id: ws, comment_id: 'c1' },
        actor,
        payload: { thread_id: 't1', object_id: 'people', record_id: 'r1', list_id: 'hiring', entry_id: 'e1' },
      },
    ]);
  });

  it('a reply restored into a thread that stayed takes its subject from the live thread; a task announces itself', () => {
    const reply = restoredEvents('comments', ws, { comments: [{ id: 'c2', thread_id: 't1' }] }, actor, [{ id: 't1', object_id: 'people', record_id: 'r1', list_id: null, entry_id: null }]);
    expect(reply).toEqual([{ eventType: 'comment.created', workspaceId: ws, id: { workspace_id: ws, comment_id: 'c2' }, actor, payload: { thread_id: 't1', object_id: 'people', record_id: 'r1' } }]);
    expect(restoredEvents('tasks', ws, { tasks: [{ id: 'k1' }], task_linked_records: [{ task_id: 'k1' }] }, actor)).toEqual([
      { eventType: 'task.created', workspaceId: ws, id: { workspace_id: ws, task_id: 'k1' }, actor },
    ]);
  });
});
