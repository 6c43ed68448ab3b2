import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { SecretBox } from '@workbase/shared/kernel';
import { Module } from '@nestjs/common';
import { DeliveryAttempts } from './application/delivery-attempts';
import { FanOut } from './application/fan-out';
import { TargetValidator } from './application/target-validator';
import { CreateWebhookUseCase } from './application/create-webhook.use-case';
import { DeleteWebhookUseCase } from './application/delete-webhook.use-case';
import { UpdateWebhookUseCase } from './application/update-webhook.use-case';
import { WebhookWorker } from './application/webhook-worker';
import { DeliveryRepository } from './infrastructure/delivery.repository';
import { SafeHttpClient } from './infrastructure/safe-http-client';
import { WebhookRepository } from './infrastructure/webhook.repository';
import { WebhooksController } from './interface/http/webhooks.controller';

const targetPolicy = [
  // Outgoing HTTP under the SSRF policy (the system resolver; tests construct their own).
  { provide: SafeHttpClient, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new SafeHttpClient({ allowPrivateTargets: config.webhookAllowPrivateTargets }) },
  TargetValidator,
];

/**
 * The SSRF rules of outgoing HTTP (`TargetValidator`), for every context that takes a URL the
 * service will fetch or hand on: webhook targets, and meetings' recording `video_url`s.
 */
@Module({ providers: targetPolicy, exports: targetPolicy })
export class TargetPolicyModule {}

const providers = [
  // Signing secrets are sealed at rest under SECRETS_KEY (stored as given when it is unset).
  { provide: SecretBox, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new SecretBox(config.secretsKey) },
  WebhookRepository,
  DeliveryRepository,
  CreateWebhookUseCase,
  UpdateWebhookUseCase,
  DeleteWebhookUseCase,
  DeliveryAttempts,
  FanOut,
  WebhookWorker,
];

/** The delivery machinery without HTTP routes: what `apps/worker` composes. */
@Module({ imports: [TargetPolicyModule], providers, exports: [...providers, TargetPolicyModule] })
export class WebhookDeliveryModule {}

/** Webhook management API plus the delivery machinery (the worker starts only when asked). */
@Module({ imports: [WebhookDeliveryModule], controllers: [WebhooksController] })
export class WebhooksModule {}
