import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { SecretBox } from '@workbase/shared/kernel';
import { Logger, Module } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import { DataSource } from 'typeorm';
import { DeliveryAttempts } from './application/delivery-attempts';
import { FanOut } from './application/fan-out';
import { TargetValidator } from './application/target-validator';
import { CreateWebhookUseCase } from './application/create-webhook.use-case';
import { DeleteWebhookUseCase } from './application/delete-webhook.use-case';
import { UpdateWebhookUseCase } from './application/update-webhook.use-case';
import { WebhookQueries } from './application/webhook.queries';
import { WebhookWorker } from './application/webhook-worker';
import { DeliveryQueue } from './infrastructure/delivery-queue';
import { DeliveryRepository } from './infrastructure/delivery.repository';
import { EndpointHealthRepository } from './infrastructure/endpoint-health.repository';
import { OutboxCursorRepository } from './infrastructure/outbox-cursor.repository';
import { RateBucketRepository } from './infrastructure/rate-bucket.repository';
import { TargetCircuitRepository } from './infrastructure/target-circuit.repository';
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

/**
 * The pg-boss queue of this process, on the data source's database (the worker starts and stops
 * it); it enqueues and completes jobs in the current transaction of `TransactionRunner`.
 */
const deliveryQueue = {
  provide: DeliveryQueue,
  inject: [APP_CONFIG, DataSource, TransactionRunner],
  useFactory: (config: AppConfig, dataSource: DataSource, transactions: TransactionRunner) => {
    const { url } = dataSource.options as { url?: string };
    if (!url) throw new Error('the webhook delivery queue needs the database URL of the data source');
    const logger = new Logger('WebhookWorker');
    return new DeliveryQueue(
      {
        connectionString: url,
        // The start lock (and the worker's LISTEN) need a session: DATABASE_DIRECT_URL bypasses a pooler.
        sessionConnectionString: config.databaseDirectUrl ?? url,
        onWaiting: (line) => logger.warn(line),
        onError: (error) => logger.warn(`queue: ${error.message}`),
        expireInSeconds: config.webhooks.jobExpireSeconds,
        maintenanceIntervalSeconds: config.webhooks.maintenanceIntervalSeconds,
      },
      transactions,
    );
  },
};

const providers = [
  // Signing secrets are sealed at rest under SECRETS_KEY (stored as given when it is unset).
  { provide: SecretBox, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new SecretBox(config.secretsKey) },
  WebhookRepository,
  deliveryQueue,
  OutboxCursorRepository,
  DeliveryRepository,
  TargetCircuitRepository,
  RateBucketRepository,
  EndpointHealthRepository,
  CreateWebhookUseCase,
  UpdateWebhookUseCase,
  DeleteWebhookUseCase,
  WebhookQueries,
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
