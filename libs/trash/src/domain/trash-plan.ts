import type { TrashKind } from '@workbase/shared/kernel';

/**
 * One table's share of a trashed item: which of its rows go with the item (`where`, over alias
 * `t`, with $1 the workspace and $2 the item's id), and which of them may come back on restore
 * (`restoreIf`, over alias `s`, the saved row): links to things that may have gone meanwhile (a
 * task, a meeting, a record) come back only when their other end still exists.
 */
export interface TableShare {
  readonly table: string;
  readonly where: string;
  /** Rows of a self-referencing table are saved (and restored) in this order, parents first. */
  readonly orderBy?: string;
  readonly restoreIf?: string;
  /** Links whose row may exist again by then (the other end re-linked it meanwhile): kept as they are. */
  readonly skipExisting?: boolean;
  /**
   * Rows the delete does not remove but unlinks (`ON DELETE SET NULL` of `column`): the restore
   * sets `column` back on the live row of the same `key`, where it is still unlinked and `sameIf`
   * (over `p`, the live row, and `s`, the saved one) holds; a row gone meanwhile stays gone.
   */
  readonly relink?: { readonly key: readonly string[]; readonly column: string; readonly sameIf?: string };
}

const recordAndEntries = `SELECT id FROM records WHERE workspace_id = $1 AND (id = $2 OR parent_record_id = $2)`;
// A thread on an entry also names the entry's parent as its record: the entry's own index finds it.
const entryThreads = `SELECT id FROM comment_threads WHERE workspace_id = $1 AND ((record_id = $2 AND entry_id IS NULL) OR entry_id IN (${recordAndEntries}))`;
// Tasks and meetings link object records only, keyed (object, record) in their indexes.
const linksOfRecord = `t.object_id = (SELECT container_id FROM records WHERE workspace_id = $1 AND id = $2) AND t.record_id = $2`;
// Values of an attribute deleted meanwhile stay out (values have no foreign key to their attribute).
const liveAttribute = `EXISTS (SELECT 1 FROM attributes a WHERE a.workspace_id = s.workspace_id AND a.id = s.attribute_id)`;
const liveRecord = (column: string) => `EXISTS (SELECT 1 FROM records r WHERE r.workspace_id = s.workspace_id AND r.id = s.${column})`;
const headOfThread = `(SELECT c.id FROM comments c WHERE c.workspace_id = $1
    AND c.thread_id = (SELECT thread_id FROM comments WHERE workspace_id = $1 AND id = $2) ORDER BY c.created_at, c.id LIMIT 1) = $2`;
const threadOfComment = `(SELECT thread_id FROM comments WHERE workspace_id = $1 AND id = $2)`;

/**
 * What goes to the trash with each kind, parents before children (the order rows are restored
 * in, so that every foreign key finds its target). A record takes its list entries and their
 * values, its notes, the comment threads on it and its entries, its task and meeting links, its
 * files (with their PostgreSQL chunks) and the meeting participants it was linked from; deleting the head comment of a thread takes the thread.
 * Rows the live tables lose by cascade and that are not listed here would be lost for good: the
 * e2e suite checks a record's restore against its state before the delete.
 */
export const TRASH_PLANS: Readonly<Record<TrashKind, readonly TableShare[]>> = {
  records: [
    { table: 'records', where: `t.id IN (${recordAndEntries})`, orderBy: '(t.parent_record_id IS NOT NULL), t.id' },
    { table: 'record_values', where: `t.record_id IN (${recordAndEntries})`, orderBy: 't.id', restoreIf: liveAttribute },
    { table: 'unique_values', where: `t.record_id IN (${recordAndEntries})`, restoreIf: liveAttribute },
    { table: 'notes', where: `t.parent_record_id = $2` },
    { table: 'comment_threads', where: `t.id IN (${entryThreads})` },
    { table: 'comments', where: `t.thread_id IN (${entryThreads})`, orderBy: 't.created_at, t.id' },
    {
      table: 'task_linked_records',
      where: linksOfRecord,
      restoreIf: `EXISTS (SELECT 1 FROM tasks k WHERE k.workspace_id = s.workspace_id AND k.id = s.task_id)`,
      skipExisting: true,
    },
    {
      table: 'meeting_linked_records',
      where: linksOfRecord,
      restoreIf: `EXISTS (SELECT 1 FROM meetings m WHERE m.workspace_id = s.workspace_id AND m.id = s.meeting_id)`,
      skipExisting: true,
    },
    // A meeting participant keeps its row when its person goes (the link is set null): the restore
    // links it again, unless the meeting's participants were replaced meanwhile.
    {
      table: 'meeting_participants',
      where: `t.person_record_id = $2`,
      relink: { key: ['meeting_id', 'position'], column: 'person_record_id', sameIf: `p.email_normalized IS NOT DISTINCT FROM s.email_normalized` },
    },
    // Folders before what they hold: a child is always created after its folder.
    { table: 'files', where: `t.record_id = $2`, orderBy: 't.created_at, (t.parent_folder_id IS NOT NULL), t.id' },
    { table: 'file_chunks', where: `t.file_id IN (SELECT id FROM files WHERE workspace_id = $1 AND record_id = $2)`, orderBy: 't.file_id, t.seq' },
  ],
  entries: [
    { table: 'records', where: `t.id = $2` },
    { table: 'record_values', where: `t.record_id = $2`, orderBy: 't.id', restoreIf: liveAttribute },
    { table: 'unique_values', where: `t.record_id = $2`, restoreIf: liveAttribute },
    { table: 'comment_threads', where: `t.entry_id = $2` },
    { table: 'comments', where: `t.thread_id IN (SELECT id FROM comment_threads WHERE workspace_id = $1 AND entry_id = $2)`, orderBy: 't.created_at, t.id' },
  ],
  notes: [{ table: 'notes', where: `t.id = $2` }],
  tasks: [
    { table: 'tasks', where: `t.id = $2` },
    { table: 'task_linked_records', where: `t.task_id = $2`, restoreIf: liveRecord('record_id') },
    { table: 'task_assignees', where: `t.task_id = $2`, restoreIf: `EXISTS (SELECT 1 FROM workspace_members w WHERE w.workspace_id = s.workspace_id AND w.id = s.member_id)` },
  ],
  comments: [
    { table: 'comment_threads', where: `t.id = ${threadOfComment} AND ${headOfThread}` },
    { table: 'comments', where: `(t.id = $2 OR (t.thread_id = ${threadOfComment} AND ${headOfThread}))`, orderBy: 't.created_at, t.id' },
  ],
};

/** A trashed item's saved rows, table by table, in the plan's order. */
export type SavedRows = Readonly<Record<string, ReadonlyArray<Readonly<Record<string, unknown>>>>>;

/** The one statement that reads every row of an item's plan as JSON (one round trip per delete). */
export function captureStatement(kind: TrashKind): string {
  const parts = TRASH_PLANS[kind].map(
    (share) =>
      `'${share.table}', (SELECT coalesce(jsonb_agg(to_jsonb(t)${share.orderBy ? ` ORDER BY ${share.orderBy}` : ''}), '[]'::jsonb) FROM ${share.table} t WHERE t.workspace_id = $1 AND (${share.where}))`,
  );
  return `SELECT jsonb_build_object(${parts.join(', ')}) AS rows`;
}
