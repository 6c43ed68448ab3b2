import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from './event-types';

/**
 * An event as the outbox holds it (`entity_id` and `payload` are JSONB: their key order is lost);
 * `T` is its type's name, the kernel's `EventType` where the reader knows it.
 */
export interface StoredEvent<T extends string = string> {
  readonly event_type: T;
  readonly entity_id: Readonly<Record<string, unknown>>;
  readonly actor: Readonly<Record<string, unknown>>;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** The delivered form of an event: its type as it was stored, then `id`, `actor` and the extra fields. */
export type WireEvent<T extends string = string> = { readonly event_type: T } & Record<string, unknown>;

const RESERVED = new Set(['event_type', 'id', 'actor']);

/**
 * The delivered form of an event: `{event_type, id, actor, ...extra fields}`. PostgreSQL's JSONB
 * reorders object keys, so the `id` is rebuilt in the documented order (`workspace_id` first, then
 * the keys of the event's family, then anything else) and the payload cannot override the three
 * reserved fields. The result is serialised once per delivery and those exact bytes are signed.
 */
export function wireEvent<T extends string>(event: StoredEvent<T>): WireEvent<T> {
  const keys = isWebhookEventType(event.event_type) ? WEBHOOK_EVENT_TYPES[event.event_type].idKeys : [];
  const id: Record<string, unknown> = {};
  for (const key of ['workspace_id', ...keys]) if (key in event.entity_id) id[key] = event.entity_id[key];
  for (const key of Object.keys(event.entity_id).sort()) if (!(key in id)) id[key] = event.entity_id[key];
  const wire: WireEvent<T> = { event_type: event.event_type, id, actor: { type: event.actor.type, id: event.actor.id ?? null } };
  for (const key of Object.keys(event.payload).sort()) if (!RESERVED.has(key)) wire[key] = event.payload[key];
  return wire;
}
