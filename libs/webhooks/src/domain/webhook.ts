import { ValidationError } from '@workbase/shared/kernel';
import { isWebhookEventType, WEBHOOK_EVENT_TYPE_NAMES, type WebhookEventType } from './event-types';
import { parseSubscriptionFilter, type SubscriptionFilter } from './subscription-filter';

export type WebhookStatus = 'active' | 'degraded' | 'inactive';

export interface Subscription {
  readonly event_type: WebhookEventType;
  readonly filter: SubscriptionFilter;
}

export interface Webhook {
  readonly workspaceId: string;
  readonly id: string;
  readonly targetUrl: string;
  readonly subscriptions: readonly Subscription[];
  readonly status: WebhookStatus;
  readonly createdAt: Date;
}

export const MAX_SUBSCRIPTIONS = 100;

/** Validates subscriptions as sent by a client (`data.subscriptions`). */
export function parseSubscriptions(raw: readonly { event_type?: unknown; filter?: unknown }[], path = 'data.subscriptions'): Subscription[] {
  if (raw.length > MAX_SUBSCRIPTIONS) throw new ValidationError(`${path} may hold at most ${MAX_SUBSCRIPTIONS} subscriptions`);
  return raw.map((item, i) => {
    const eventType = item.event_type;
    if (!isWebhookEventType(eventType)) {
      throw new ValidationError(`${path}[${i}].event_type ${JSON.stringify(eventType)} is not a known event type`, { allowed: WEBHOOK_EVENT_TYPE_NAMES });
    }
    return { event_type: eventType, filter: parseSubscriptionFilter(item.filter, eventType, `${path}[${i}].filter`) };
  });
}
