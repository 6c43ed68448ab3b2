import type { Actor, DomainEvent, EventType } from '@workbase/shared/kernel';

export const NOTE_EVENTS = {
  created: 'note.created',
  updated: 'note.updated',
  contentUpdated: 'note-content.updated',
  deleted: 'note.deleted',
} as const satisfies Record<string, EventType>;

type NoteEventType = (typeof NOTE_EVENTS)['created' | 'updated' | 'deleted'];

/**
 * A note event in the wire shape: `id` is `{workspace_id, note_id}`; the `note.*` events carry
 * `parent_object_id` and `parent_record_id` at the top level, so that webhook subscriptions can
 * filter on them.
 */
export function noteEvent(
  eventType: NoteEventType,
  workspaceId: string,
  noteId: string,
  actor: Actor,
  parent: { parentObjectId: string; parentRecordId: string },
): DomainEvent<NoteEventType> {
  return {
    eventType,
    workspaceId,
    id: { workspace_id: workspaceId, note_id: noteId },
    actor,
    payload: { parent_object_id: parent.parentObjectId, parent_record_id: parent.parentRecordId },
  };
}

/** `note-content.updated` carries the note id only (reference facts §6.4). */
export function noteContentEvent(workspaceId: string, noteId: string, actor: Actor): DomainEvent<'note-content.updated'> {
  return { eventType: NOTE_EVENTS.contentUpdated, workspaceId, id: { workspace_id: workspaceId, note_id: noteId }, actor };
}
