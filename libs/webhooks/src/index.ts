export { WebhooksModule, WebhookDeliveryModule } from './webhooks.module';
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
/** The SSRF rules of webhook targets, for any URL the service fetches (e.g. a recording's video_url). */
export { checkPublicUrl, type PublicUrlOptions, type HostResolver } from './infrastructure/safe-http-client';
