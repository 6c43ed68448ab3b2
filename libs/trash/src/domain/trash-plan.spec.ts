import { TRASH_KINDS } from '@workbase/shared/kernel';
import { captureStatement, TRASH_PLANS } from './trash-plan';

/** Foreign keys among the tables the plans hold (child → parent): a restore inserts parents first. */
const PARENTS: Record<string, readonly string[]> = {
  record_values: ['records'],
  unique_values: ['records'],
  notes: ['records'],
  comment_threads: ['records'],
  comments: ['comment_threads'],
  task_linked_records: ['records', 'tasks'],
  task_assignees: ['tasks'],
  meeting_linked_records: ['records'],
  meeting_participants: ['records'],
  files: ['records'],
  file_chunks: ['files'],
};

describe('trash plans', () => {
  it.each(TRASH_KINDS)('%s: each table comes after the tables it references that the item also holds', (kind) => {
    const order = TRASH_PLANS[kind].map((share) => share.table);
    for (const [i, table] of order.entries()) {
      for (const parent of PARENTS[table] ?? []) {
        const at = order.indexOf(parent);
        if (at !== -1) expect({ table, parent, before: at < i }).toEqual({ table, parent, before: true });
      }
    }
    expect(new Set(order).size).toBe(order.length);
  });

  it('a record takes its entries, notes, threads, task and meeting links and files; an entry its threads; a task its links and assignees', () => {
    expect(TRASH_PLANS.records.map((share) => share.table)).toEqual(
      expect.arrayContaining(['records', 'record_values', 'unique_values', 'notes', 'comment_threads', 'comments', 'task_linked_records', 'meeting_linked_records', 'meeting_participants', 'files', 'file_chunks']),
    );
    // Participants stay when their person goes (SET NULL): they are linked again, not inserted.
    expect(TRASH_PLANS.records.find((share) => share.table === 'meeting_participants')?.relink).toEqual(expect.objectContaining({ column: 'person_record_id' }));
    expect(TRASH_PLANS.entries.map((share) => share.table)).toEqual(['records', 'record_values', 'unique_values', 'comment_threads', 'comments']);
    expect(TRASH_PLANS.tasks.map((share) => share.table)).toEqual(['tasks', 'task_linked_records', 'task_assignees']);
  });

  it('reads every table of a plan in one statement, scoped to the workspace', () => {
    const sql = captureStatement('records');
    for (const share of TRASH_PLANS.records) expect(sql).toContain(`'${share.table}', (SELECT`);
    expect(sql.match(/t\.workspace_id = \$1/g)).toHaveLength(TRASH_PLANS.records.length);
  });
});
