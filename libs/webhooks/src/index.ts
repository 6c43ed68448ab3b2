export { WebhooksModule, WebhookDeliveryModule, TargetPolicyModule } from './webhooks.module';
export { TargetValidator } from './application/target-validator';
export { WebhookWorker } from './application/webhook-worker';
export {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_TYPE_NAMES,
  ACTIVITY_EVENT_TYPES,
  isWebhookEventType,
  filterFieldsFor,
  type WebhookEventType,
  type EventTypeDefinition,
} from './domain/event-types';
export { type SubscriptionFilter, type FilterCondition } from './domain/subscription-filter';
export { type WebhookStatus } from './domain/webhook';
export { wireEvent, type StoredEvent } from './domain/wire-event';
export { compareOutboxPositions, type OutboxPosition } from './domain/outbox-position';
