import type { TrashKind } from '@workbase/shared/kernel';
import type { SavedRows } from './trash-plan';

/** What must still exist for an item to come back: records (as parents or subjects), containers, comment threads. */
export interface RestoreNeeds {
  readonly records: ReadonlyArray<{ id: string; what: string }>;
  readonly containers: ReadonlyArray<{ id: string; what: string }>;
  readonly threads: readonly string[];
}

/**
 * The parents an item needs, read from its saved rows: an entry needs its list and its parent
 * record, a record its object, a note its record, a comment its thread (or, when the thread came
 * with it, the thread's record and entry). A task hangs off nothing.
 */
export function restoreNeeds(kind: TrashKind, rows: SavedRows): RestoreNeeds {
  const records: Array<{ id: string; what: string }> = [];
  const containers: Array<{ id: string; what: string }> = [];
  const threads: string[] = [];
  const head = (rows.records ?? [])[0];
  if (kind === 'records' && head) containers.push({ id: String(head.container_id), what: `object ${String(head.container_id)}` });
  if (kind === 'entries' && head) {
    containers.push({ id: String(head.container_id), what: `list ${String(head.container_id)}` });
    if (head.parent_record_id != null) records.push({ id: String(head.parent_record_id), what: `parent record ${String(head.parent_record_id)}` });
  }
  if (kind === 'notes') for (const note of rows.notes ?? []) records.push({ id: String(note.parent_record_id), what: `parent record ${String(note.parent_record_id)}` });
  if (kind === 'comments') {
    const saved = rows.comment_threads ?? [];
    for (const thread of saved) {
      records.push({ id: String(thread.record_id), what: `record ${String(thread.record_id)}` });
      if (thread.entry_id != null) records.push({ id: String(thread.entry_id), what: `entry ${String(thread.entry_id)}` });
    }
    if (saved.length === 0) threads.push(...new Set((rows.comments ?? []).map((comment) => String(comment.thread_id))));
  }
  return { records, containers, threads };
}
