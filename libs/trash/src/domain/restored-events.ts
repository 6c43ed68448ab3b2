import type { Actor, DomainEvent, TrashKind } from '@workbase/shared/kernel';
import type { SavedRows } from './trash-plan';

type Row = Readonly<Record<string, unknown>>;
const text = (row: Row, column: string): string => String(row[column]);

/**
 * The `*.created` events a restore records: one per item that comes back (the record and each of
 * its entries, its notes and the comments of its threads; or the one entry, note, task or
 * comment), in the shapes of the event catalogue, with the restoring actor. Built from the saved
 * rows, so that a restore needs no context's code; the catalogue's types keep the shapes right.
 * `threads` are the comment threads of restored comments whose thread did not go to the trash.
 */
export function restoredEvents(kind: TrashKind, workspaceId: string, rows: SavedRows, actor: Actor, threads: readonly Row[] = []): DomainEvent[] {
  const events: DomainEvent[] = [];
  for (const record of rows.records ?? []) {
    const recordId = text(record, 'id');
    const containerId = text(record, 'container_id');
    const isEntry = kind === 'entries' || record.parent_record_id != null;
    events.push(
      isEntry
        ? { eventType: 'list-entry.created', workspaceId, id: { workspace_id: workspaceId, list_id: containerId, entry_id: recordId }, actor }
        : { eventType: 'record.created', workspaceId, id: { workspace_id: workspaceId, object_id: containerId, record_id: recordId }, actor },
    );
  }
  for (const note of rows.notes ?? []) {
    events.push({
      eventType: 'note.created',
      workspaceId,
      id: { workspace_id: workspaceId, note_id: text(note, 'id') },
      actor,
      payload: { parent_object_id: text(note, 'parent_object_id'), parent_record_id: text(note, 'parent_record_id') },
    });
  }
  for (const task of rows.tasks ?? []) events.push({ eventType: 'task.created', workspaceId, id: { workspace_id: workspaceId, task_id: text(task, 'id') }, actor });
  const threadsById = new Map([...(rows.comment_threads ?? []), ...threads].map((thread) => [text(thread, 'id'), thread]));
  for (const comment of rows.comments ?? []) {
    const thread = threadsById.get(text(comment, 'thread_id'));
    if (!thread) continue;
    const onEntry = thread.entry_id != null ? { list_id: text(thread, 'list_id'), entry_id: text(thread, 'entry_id') } : {};
    events.push({
      eventType: 'comment.created',
      workspaceId,
      id: { workspace_id: workspaceId, comment_id: text(comment, 'id') },
      actor,
      payload: { thread_id: text(thread, 'id'), object_id: text(thread, 'object_id'), record_id: text(thread, 'record_id'), ...onEntry },
    });
  }
  return events;
}
