import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { NotFoundError, RateLimitedError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { rateTargetKey } from '../domain/rate-target';
import { nextAttemptDelaySeconds, parseRetryAfter } from '../domain/retry-schedule';
import { signatureHeaders } from '../domain/signature';
import type { TargetPolicy } from '../domain/target-policy';
import type { DeliveryJob, DeliveryQueue } from '../infrastructure/delivery-queue';
import { type AttemptRecord, DeliveryStore, type DeliveryToAttempt } from '../infrastructure/delivery-store';
import { postJson } from '../infrastructure/safe-http-client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Longest a job waits in-process for a rate-limit token before it is rescheduled instead. */
const MAX_INLINE_WAIT_SECONDS = 1;

/**
 * One HTTP attempt of a delivery: rate limit, sign, POST, then record the outcome, move the
 * endpoint's health and schedule the next attempt, all in one transaction. Jobs are at-least-once:
 * a job that finds its attempt already recorded does nothing.
 */
@Injectable()
export class DeliveryAttempts {
  private readonly policy: TargetPolicy;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly transactions: TransactionRunner,
    private readonly store: DeliveryStore,
  ) {
    this.policy = { allowPrivateTargets: config.webhookAllowPrivateTargets };
  }

  async attempt(queue: DeliveryQueue, job: DeliveryJob): Promise<void> {
    const delivery = await this.store.findForAttempt(job.workspaceId, job.deliveryId);
    if (!delivery || delivery.status !== 'pending' || delivery.attempts >= job.attempt) return;
    if (delivery.webhook_status === 'inactive') {
      await this.store.cancel(job.workspaceId, job.deliveryId, 'webhook is inactive');
      return;
    }
    const wait = await this.waitForToken(delivery);
    if (wait > 0) {
      // Not this target's turn yet: the same attempt again later, without holding a worker slot.
      await this.transactions.run((manager) => queue.enqueue(manager, [{ data: job, startAfterSeconds: wait + Math.random() * 0.05 }]));
      return;
    }
    const record = await this.send(delivery, 'automatic');
    const { webhooks } = this.config;
    await this.transactions.run(async (manager) => {
      let status: 'pending' | 'succeeded' | 'failed' = 'succeeded';
      let delay: number | null = null;
      if (!record.succeeded) {
        const endpoint = await this.store.markEndpointFailure(job.workspaceId, delivery.webhook_id, {
          degradedAfterFailures: webhooks.degradedAfterFailures,
          inactiveAfterSeconds: webhooks.inactiveAfterSeconds,
          gone: record.statusCode === 410,
        });
        const retryAfter = record.statusCode === 429 || record.statusCode === 503 ? parseRetryAfter(record.retryAfter) : null;
        delay = endpoint === 'inactive' ? null : nextAttemptDelaySeconds(webhooks.retryScheduleSeconds, job.attempt, retryAfter);
        status = delay === null ? 'failed' : 'pending';
      }
      const nextAttemptAt = delay === null ? null : new Date(Date.now() + delay * 1000);
      const recorded = await this.store.recordAutomaticAttempt(job.workspaceId, job.deliveryId, job.attempt, record, { status, nextAttemptAt });
      if (!recorded) {
        // Another worker recorded this attempt meanwhile: undo our health change too.
        throw new StaleAttempt();
      }
      if (record.succeeded) await this.store.markEndpointHealthy(job.workspaceId, delivery.webhook_id);
      if (delay !== null) {
        await queue.enqueue(manager, [{ data: { ...job, attempt: job.attempt + 1 }, startAfterSeconds: delay }]);
      }
    }).catch((error: unknown) => {
      if (!(error instanceof StaleAttempt)) throw error;
    });
  }

  /**
   * Sends a delivery once more on request, with its original `webhook-id`, a fresh timestamp and
   * the current secret. It is logged as a replay attempt and does not move the endpoint's health.
   */
  async replay(workspaceId: string, webhookId: string, deliveryId: string): Promise<void> {
    const delivery = await this.store.findForAttempt(workspaceId, deliveryId);
    if (!delivery || delivery.webhook_id !== webhookId) throw new NotFoundError(`Delivery with ID "${deliveryId}" not found.`);
    const deadline = Date.now() + 5_000;
    for (let wait = await this.waitForToken(delivery); wait > 0; wait = await this.waitForToken(delivery)) {
      if (Date.now() + wait * 1000 > deadline) throw new RateLimitedError(Math.ceil(wait));
      await sleep(wait * 1000);
    }
    const record = await this.send(delivery, 'replay');
    await this.transactions.run(() => this.store.recordReplayAttempt(workspaceId, deliveryId, record));
  }

  /**
   * 0 once a token is taken from the target's bucket (waiting up to a second in-process), else the
   * seconds still to wait. The bucket is the target URL's, shared by every webhook posting to it.
   */
  private async waitForToken(delivery: DeliveryToAttempt): Promise<number> {
    const { rateLimitPerSecond, rateLimitBurst } = this.config.webhooks;
    const target = rateTargetKey(delivery.target_url);
    let waited = 0;
    for (;;) {
      const wait = await this.store.takeRateToken(target, rateLimitPerSecond, rateLimitBurst);
      if (wait === 0) return 0;
      if (waited + wait > MAX_INLINE_WAIT_SECONDS) return wait;
      const pause = wait + Math.random() * Math.min(wait, 0.02);
      await sleep(pause * 1000);
      waited += pause;
    }
  }

  private async send(delivery: DeliveryToAttempt, trigger: 'automatic' | 'replay'): Promise<AttemptRecord & { retryAfter: string | undefined }> {
    const startedAt = new Date();
    const headers = { ...signatureHeaders(delivery.secret, delivery.id, delivery.body, startedAt), 'idempotency-key': delivery.id };
    const result = await postJson(delivery.target_url, delivery.body, headers, this.config.webhooks.deliveryTimeoutMs, this.policy);
    const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    return {
      trigger,
      startedAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error ?? (succeeded ? null : `HTTP ${result.statusCode}`),
      succeeded,
      retryAfter: result.retryAfter,
    };
  }
}

class StaleAttempt extends Error {}
