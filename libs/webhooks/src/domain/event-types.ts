import { EVENT_CATALOGUE, EVENT_TYPES, type EventType, type EventTypeDefinition, isEventType } from '@workbase/shared/kernel';

export type { EventTypeDefinition };

/**
 * Webhooks deliver every event type of the kernel's catalogue (`EVENT_CATALOGUE`): a subscription
 * may name any of them, fan-out orders each delivered `id` by the catalogue's keys, and the OpenAPI
 * document lists the same names. The filter fields of a subscription are derived from the entries.
 */
export type WebhookEventType = EventType;

export const WEBHOOK_EVENT_TYPES = EVENT_CATALOGUE;

export const WEBHOOK_EVENT_TYPE_NAMES: readonly WebhookEventType[] = EVENT_TYPES;

export const ACTIVITY_EVENT_TYPES = WEBHOOK_EVENT_TYPE_NAMES.filter((name) => name.startsWith('activity'));

export const isWebhookEventType = isEventType;

/** The fields a subscription filter on this event type may name. */
export function filterFieldsFor(eventType: WebhookEventType): readonly string[] {
  const definition: EventTypeDefinition = WEBHOOK_EVENT_TYPES[eventType];
  return ['id.workspace_id', ...definition.idKeys.map((key) => `id.${key}`), 'actor.type', 'actor.id', ...definition.payloadFields];
}
