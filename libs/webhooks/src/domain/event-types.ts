/**
 * The one catalogue of webhook event types: every type the outbox may carry and a subscription may
 * name, with the keys of its composite `id` and the extra top-level payload fields it carries.
 * Other contexts record their events with these names (`EventOutbox.record`); the filter fields of
 * a subscription are derived from the same entries.
 */
export interface EventTypeDefinition {
  /** Keys of the event's `id` besides `workspace_id`. */
  readonly idKeys: readonly string[];
  /** Extra top-level fields of the delivered event (from the outbox payload) that filters may use. */
  readonly payloadFields: readonly string[];
}

const family = (idKeys: readonly string[], payloadFields: readonly string[] = []): EventTypeDefinition => ({ idKeys, payloadFields });

const RECORD = family(['object_id', 'record_id']);
const RECORD_UPDATED = family(['object_id', 'record_id', 'attribute_id']);
const OBJECT_ATTRIBUTE = family(['object_id', 'attribute_id']);
const LIST = family(['list_id']);
const LIST_ATTRIBUTE = family(['list_id', 'attribute_id']);
const LIST_ENTRY = family(['list_id', 'entry_id']);
const LIST_ENTRY_UPDATED = family(['list_id', 'entry_id', 'attribute_id']);
const NOTE = family(['note_id'], ['parent_object_id', 'parent_record_id']);
// `note-content.updated` carries the note id only (reference facts §6.4; libs/notes records it so).
const NOTE_CONTENT = family(['note_id']);
const TASK = family(['task_id']);
const COMMENT = family(['comment_id'], ['thread_id', 'object_id', 'record_id', 'list_id', 'entry_id']);
const CALL_RECORDING = family(['meeting_id', 'call_recording_id']);
const WORKSPACE_MEMBER = family(['workspace_member_id']);
// Activity families: the spec's activity filter fields are api_slug, id.workspace_id,
// id.record_id, id.attribute_id, actor.type and actor.id; `api_slug` is the activity's slug.
const ACTIVITY = family(['activity_id', 'record_id', 'attribute_id'], ['api_slug']);

export const WEBHOOK_EVENT_TYPES = {
  'call-recording.created': CALL_RECORDING,
  'comment.created': COMMENT,
  'comment.resolved': COMMENT,
  'comment.unresolved': COMMENT,
  'comment.deleted': COMMENT,
  'list.created': LIST,
  'list.updated': LIST,
  'list.deleted': LIST,
  'list-attribute.created': LIST_ATTRIBUTE,
  'list-attribute.updated': LIST_ATTRIBUTE,
  'list-entry.created': LIST_ENTRY,
  'list-entry.updated': LIST_ENTRY_UPDATED,
  'list-entry.deleted': LIST_ENTRY,
  'object-attribute.created': OBJECT_ATTRIBUTE,
  'object-attribute.updated': OBJECT_ATTRIBUTE,
  'note.created': NOTE,
  'note-content.updated': NOTE_CONTENT,
  'note.updated': NOTE,
  'note.deleted': NOTE,
  'record.created': RECORD,
  'record.merged': RECORD,
  'record.updated': RECORD_UPDATED,
  'record.deleted': RECORD,
  'task.created': TASK,
  'task.updated': TASK,
  'task.deleted': TASK,
  'workspace-member.created': WORKSPACE_MEMBER,
  // The seven activity events. The spec rules out `activity-record.updated`; DELETE of an
  // activity exists, so the seventh is `activity.deleted`.
  'activity.created': ACTIVITY,
  'activity.updated': ACTIVITY,
  'activity.deleted': ACTIVITY,
  'activity-attribute.created': ACTIVITY,
  'activity-attribute.updated': ACTIVITY,
  'activity-record.created': ACTIVITY,
  'activity-record.deleted': ACTIVITY,
} as const satisfies Record<string, EventTypeDefinition>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;

export const WEBHOOK_EVENT_TYPE_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[];

export const ACTIVITY_EVENT_TYPES = WEBHOOK_EVENT_TYPE_NAMES.filter((name) => name.startsWith('activity')) as WebhookEventType[];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(WEBHOOK_EVENT_TYPES, value);
}

/** The fields a subscription filter on this event type may name. */
export function filterFieldsFor(eventType: WebhookEventType): readonly string[] {
  const definition: EventTypeDefinition = WEBHOOK_EVENT_TYPES[eventType];
  return ['id.workspace_id', ...definition.idKeys.map((key) => `id.${key}`), 'actor.type', 'actor.id', ...definition.payloadFields];
}
