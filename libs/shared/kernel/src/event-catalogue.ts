/**
 * The one catalogue of the events the service records and delivers: every event type (the 27 of
 * the reference API plus the seven activity events) with the keys of its composite `id` and the
 * extra top-level fields it carries (reference facts §6.4). Producers build `DomainEvent`s typed by
 * it, the outbox stores them, webhooks validate subscriptions, fan out and document the list from
 * it. An event name that is not here does not compile.
 */

import type { Scope } from './scopes';

/** `id` of the record families: the container's id and the record's (entry's) id. */
interface ObjectRecordId { readonly object_id: string; readonly record_id: string }
interface ListEntryId { readonly list_id: string; readonly entry_id: string }
/**
 * Activity events share one family: `activity_id` always, `record_id` on `activity-record.*`,
 * `attribute_id` on `activity-attribute.*`; the spec's filter fields name all three for every
 * activity event.
 */
interface ActivityId { readonly activity_id: string; readonly record_id?: string; readonly attribute_id?: string }

/** Top-level fields of the `note.*` events (not `note-content.updated`). */
export interface NoteEventFields { readonly parent_object_id: string; readonly parent_record_id: string }
/** Top-level fields of the `comment.*` events; `list_id`/`entry_id` on a comment on an entry. */
export interface CommentEventFields {
  readonly thread_id: string;
  readonly object_id: string;
  readonly record_id: string;
  readonly list_id?: string;
  readonly entry_id?: string;
}
/** Top-level fields of `record.merged`: one of the two originals the new record (`id.record_id`) replaced. */
export interface RecordMergedFields { readonly duplicate_record_id: string; readonly duplicate_object_id: string }
/** Top-level field of every activity event: the activity's slug when the event happened. */
export interface ActivityEventFields { readonly api_slug: string }

/** Each event type's `id` (besides `workspace_id`) and extra fields (`undefined`: none). */
export interface EventShapes {
  'call-recording.created': { id: { readonly meeting_id: string; readonly call_recording_id: string }; fields: undefined };
  'comment.created': { id: { readonly comment_id: string }; fields: CommentEventFields };
  'comment.resolved': { id: { readonly comment_id: string }; fields: CommentEventFields };
  'comment.unresolved': { id: { readonly comment_id: string }; fields: CommentEventFields };
  'comment.deleted': { id: { readonly comment_id: string }; fields: CommentEventFields };
  'list.created': { id: { readonly list_id: string }; fields: undefined };
  'list.updated': { id: { readonly list_id: string }; fields: undefined };
  'list.deleted': { id: { readonly list_id: string }; fields: undefined };
  'list-attribute.created': { id: { readonly list_id: string; readonly attribute_id: string }; fields: undefined };
  'list-attribute.updated': { id: { readonly list_id: string; readonly attribute_id: string }; fields: undefined };
  'list-entry.created': { id: ListEntryId; fields: undefined };
  'list-entry.updated': { id: ListEntryId & { readonly attribute_id: string }; fields: undefined };
  'list-entry.deleted': { id: ListEntryId; fields: undefined };
  'object-attribute.created': { id: { readonly object_id: string; readonly attribute_id: string }; fields: undefined };
  'object-attribute.updated': { id: { readonly object_id: string; readonly attribute_id: string }; fields: undefined };
  'note.created': { id: { readonly note_id: string }; fields: NoteEventFields };
  // `note-content.updated` carries the note id only (reference facts §6.4).
  'note-content.updated': { id: { readonly note_id: string }; fields: undefined };
  'note.updated': { id: { readonly note_id: string }; fields: NoteEventFields };
  'note.deleted': { id: { readonly note_id: string }; fields: NoteEventFields };
  'record.created': { id: ObjectRecordId; fields: undefined };
  // Two per merge, one per original; `id.record_id` is the new record's (reference, 2026-07).
  'record.merged': { id: ObjectRecordId; fields: RecordMergedFields };
  'record.updated': { id: ObjectRecordId & { readonly attribute_id: string }; fields: undefined };
  'record.deleted': { id: ObjectRecordId; fields: undefined };
  'task.created': { id: { readonly task_id: string }; fields: undefined };
  'task.updated': { id: { readonly task_id: string }; fields: undefined };
  'task.deleted': { id: { readonly task_id: string }; fields: undefined };
  'workspace-member.created': { id: { readonly workspace_member_id: string }; fields: undefined };
  // The seven activity events. The spec rules out `activity-record.updated`; DELETE of an activity
  // exists, so the seventh is `activity.deleted`.
  'activity.created': { id: ActivityId; fields: ActivityEventFields };
  'activity.updated': { id: ActivityId; fields: ActivityEventFields };
  'activity.deleted': { id: ActivityId; fields: ActivityEventFields };
  'activity-attribute.created': { id: ActivityId; fields: ActivityEventFields };
  'activity-attribute.updated': { id: ActivityId; fields: ActivityEventFields };
  'activity-record.created': { id: ActivityId; fields: ActivityEventFields };
  'activity-record.deleted': { id: ActivityId; fields: ActivityEventFields };
}

export type EventType = keyof EventShapes;

/** The composite `id` of an event of this type, in the wire format (always with `workspace_id`). */
export type EventId<T extends EventType> = { readonly workspace_id: string } & EventShapes[T]['id'];

/** The extra top-level fields of an event of this type (`undefined`: it has none). */
export type EventFields<T extends EventType> = EventShapes[T]['fields'];

/** What the runtime needs of an event type: the keys of its `id` (in wire order) and its extra fields. */
export interface EventTypeDefinition {
  readonly idKeys: readonly string[];
  readonly payloadFields: readonly string[];
}

/** An entry whose names the compiler checks against the event type's shape. */
interface CheckedDefinition<T extends EventType> extends EventTypeDefinition {
  readonly idKeys: readonly (keyof EventShapes[T]['id'] & string)[];
  readonly payloadFields: readonly (EventFields<T> extends undefined ? never : keyof NonNullable<EventFields<T>> & string)[];
}

const NOTE_FIELDS = ['parent_object_id', 'parent_record_id'] as const;
const COMMENT_FIELDS = ['thread_id', 'object_id', 'record_id', 'list_id', 'entry_id'] as const;
const ACTIVITY = { idKeys: ['activity_id', 'record_id', 'attribute_id'], payloadFields: ['api_slug'] } as const;

/** The runtime side of `EventShapes`: one entry per event type, checked against it by the compiler. */
export const EVENT_CATALOGUE: { readonly [T in EventType]: CheckedDefinition<T> } = {
  'call-recording.created': { idKeys: ['meeting_id', 'call_recording_id'], payloadFields: [] },
  'comment.created': { idKeys: ['comment_id'], payloadFields: COMMENT_FIELDS },
  'comment.resolved': { idKeys: ['comment_id'], payloadFields: COMMENT_FIELDS },
  'comment.unresolved': { idKeys: ['comment_id'], payloadFields: COMMENT_FIELDS },
  'comment.deleted': { idKeys: ['comment_id'], payloadFields: COMMENT_FIELDS },
  'list.created': { idKeys: ['list_id'], payloadFields: [] },
  'list.updated': { idKeys: ['list_id'], payloadFields: [] },
  'list.deleted': { idKeys: ['list_id'], payloadFields: [] },
  'list-attribute.created': { idKeys: ['list_id', 'attribute_id'], payloadFields: [] },
  'list-attribute.updated': { idKeys: ['list_id', 'attribute_id'], payloadFields: [] },
  'list-entry.created': { idKeys: ['list_id', 'entry_id'], payloadFields: [] },
  'list-entry.updated': { idKeys: ['list_id', 'entry_id', 'attribute_id'], payloadFields: [] },
  'list-entry.deleted': { idKeys: ['list_id', 'entry_id'], payloadFields: [] },
  'object-attribute.created': { idKeys: ['object_id', 'attribute_id'], payloadFields: [] },
  'object-attribute.updated': { idKeys: ['object_id', 'attribute_id'], payloadFields: [] },
  'note.created': { idKeys: ['note_id'], payloadFields: NOTE_FIELDS },
  'note-content.updated': { idKeys: ['note_id'], payloadFields: [] },
  'note.updated': { idKeys: ['note_id'], payloadFields: NOTE_FIELDS },
  'note.deleted': { idKeys: ['note_id'], payloadFields: NOTE_FIELDS },
  'record.created': { idKeys: ['object_id', 'record_id'], payloadFields: [] },
  'record.merged': { idKeys: ['object_id', 'record_id'], payloadFields: ['duplicate_record_id', 'duplicate_object_id'] },
  'record.updated': { idKeys: ['object_id', 'record_id', 'attribute_id'], payloadFields: [] },
  'record.deleted': { idKeys: ['object_id', 'record_id'], payloadFields: [] },
  'task.created': { idKeys: ['task_id'], payloadFields: [] },
  'task.updated': { idKeys: ['task_id'], payloadFields: [] },
  'task.deleted': { idKeys: ['task_id'], payloadFields: [] },
  'workspace-member.created': { idKeys: ['workspace_member_id'], payloadFields: [] },
  'activity.created': ACTIVITY,
  'activity.updated': ACTIVITY,
  'activity.deleted': ACTIVITY,
  'activity-attribute.created': ACTIVITY,
  'activity-attribute.updated': ACTIVITY,
  'activity-record.created': ACTIVITY,
  'activity-record.deleted': ACTIVITY,
};

/**
 * The scope a token needs to read events of each type (the change feed, `GET /v2/events`, shows a
 * token only the events of the areas it may read). Typed over every event type, so a new event
 * type does not compile until it says which area it belongs to.
 */
export const EVENT_READ_SCOPES: { readonly [T in EventType]: Scope } = {
  'call-recording.created': 'call_recording:read',
  'comment.created': 'comment:read',
  'comment.resolved': 'comment:read',
  'comment.unresolved': 'comment:read',
  'comment.deleted': 'comment:read',
  'list.created': 'list_configuration:read',
  'list.updated': 'list_configuration:read',
  'list.deleted': 'list_configuration:read',
  'list-attribute.created': 'list_configuration:read',
  'list-attribute.updated': 'list_configuration:read',
  'list-entry.created': 'list_entry:read',
  'list-entry.updated': 'list_entry:read',
  'list-entry.deleted': 'list_entry:read',
  'object-attribute.created': 'object_configuration:read',
  'object-attribute.updated': 'object_configuration:read',
  'note.created': 'note:read',
  'note-content.updated': 'note:read',
  'note.updated': 'note:read',
  'note.deleted': 'note:read',
  'record.created': 'record_permission:read',
  'record.merged': 'record_permission:read',
  'record.updated': 'record_permission:read',
  'record.deleted': 'record_permission:read',
  'task.created': 'task:read',
  'task.updated': 'task:read',
  'task.deleted': 'task:read',
  'workspace-member.created': 'user_management:read',
  'activity.created': 'activity_configuration:read',
  'activity.updated': 'activity_configuration:read',
  'activity.deleted': 'activity_configuration:read',
  'activity-attribute.created': 'activity_configuration:read',
  'activity-attribute.updated': 'activity_configuration:read',
  'activity-record.created': 'activity_record:read',
  'activity-record.deleted': 'activity_record:read',
};

/** Every event type, in catalogue order. */
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(EVENT_CATALOGUE, value);
}
