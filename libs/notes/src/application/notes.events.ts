import type { Actor, DomainEvent } from '@workbase/shared/kernel';

export const NOTE_EVENTS = {
  created: 'note.created',
  updated: 'note.updated',
  contentUpdated: 'note-content.updated',
  deleted: 'note.deleted',
} as const;

/**
 * A note event in the wire shape: `id` is `{workspace_id, note_id}`; the `note.*` events carry
 * `parent_object_id` and `parent_record_id` at the top level, so that webhook subscriptions can
 * filter on them. `note-content.updated` carries the note id only.
 */
export function noteEvent(
  eventType: (typeof NOTE_EVENTS)[keyof typeof NOTE_EVENTS],
  workspaceId: string,
  noteId: string,
  actor: Actor,
  parent?: { parentObjectId: string; parentRecordId: string },
): DomainEvent {
  return {
    eventType,
    workspaceId,
    id: { workspace_id: workspaceId, note_id: noteId },
    actor,
    ...(parent ? { payload: { parent_object_id: parent.parentObjectId, parent_record_id: parent.parentRecordId } } : {}),
  };
}
