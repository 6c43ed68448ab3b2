import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { NotificationListener, OUTBOX_CHANNEL } from '@workbase/shared/persistence';
import { SLOW_AFTER_SECONDS, SLOW_LANE_SLOTS_FACTOR } from '../domain/in-flight-policy';
import { DeliveryQueue, type FetchedJob, JOBS_CHANNEL } from '../infrastructure/delivery-queue';
import { EndpointHealthRepository } from '../infrastructure/endpoint-health.repository';
import { RateBucketRepository } from '../infrastructure/rate-bucket.repository';
import { TargetCircuitRepository } from '../infrastructure/target-circuit.repository';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliverySlots } from './delivery-slots';
import { FanOut } from './fan-out';

/** How often idle slots look for due jobs without a notification (jobs scheduled for later). */
const POLLING_INTERVAL_MS = 500;
const SWEEP_INTERVAL_MS = 30_000;
/** First re-look when committed events wait behind an older running transaction (doubles, up to the poll interval). */
const HORIZON_RETRY_MS = 5;

/**
 * The delivery worker: a fan-out loop over the outbox, and WEBHOOK_WORKER_CONCURRENCY delivery
 * slots that each run one pg-boss job (one attempt) at a time (see `DeliverySlots`).
 * Runs in `apps/worker` and, unless RUN_WORKER=false, inside the API process. Any number of
 * workers may run against one database: the cursor row serialises fan-out, pg-boss hands each
 * job to one worker, and the rate-limit buckets live in PostgreSQL.
 *
 * Fan-out runs when the outbox notifies (`pg_notify('workbase_outbox')`, sent at the commit of
 * every transaction that records events), on a dedicated listening connection; notifications
 * that arrive while it runs coalesce into one more run. It also still polls every
 * WEBHOOK_FANOUT_INTERVAL_MS, which covers a lost listening connection or a missed notification.
 * Fan-out's jobs notify `workbase_webhook_jobs`, which wakes the pg-boss workers of every process.
 */
@Injectable()
export class WebhookWorker implements OnModuleDestroy {
  private readonly logger = new Logger('WebhookWorker');
  private slots: DeliverySlots<FetchedJob> | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeLoop: (() => void) | null = null;
  private fanOutRequested = false;
  private listener: NotificationListener | null = null;
  private lastSweep = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: DeliveryQueue,
    private readonly fanOut: FanOut,
    private readonly attempts: DeliveryAttempts,
    private readonly endpoints: EndpointHealthRepository,
    private readonly rateBuckets: RateBucketRepository,
    private readonly circuits: TargetCircuitRepository,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    if (this.running) return;
    const { webhooks } = this.config;
    const queue = this.queue;
    await queue.start();
    this.running = true;
    // This process's jobs under way per target and not yet slow: fetch leaves a target's jobs
    // queued while its cap is full. (Past SLOW_AFTER_SECONDS a job's attempt row is written: the
    // database's count, which knows whether a slow attempt still counts, is the one that matters.)
    const underWay = new Map<string, number>();
    const release = (target: string) => {
      const left = (underWay.get(target) ?? 1) - 1;
      if (left > 0) underWay.set(target, left);
      else underWay.delete(target);
    };
    const slots = new DeliverySlots<FetchedJob>({
      slots: webhooks.workerConcurrency,
      slowAfterMs: SLOW_AFTER_SECONDS * 1000,
      slowSlots: webhooks.workerConcurrency * SLOW_LANE_SLOTS_FACTOR,
      pollIntervalMs: POLLING_INTERVAL_MS,
      fetch: (count) => queue.fetch(count, { maxPerTarget: webhooks.maxInFlightPerTarget }, underWay),
      run: async (job) => {
        const target = job.data.target;
        let counted = Boolean(target);
        if (target) underWay.set(target, (underWay.get(target) ?? 0) + 1);
        const slow = setTimeout(() => {
          if (counted && target) release(target);
          counted = false;
        }, SLOW_AFTER_SECONDS * 1000);
        try {
          await this.attempts.attempt(job, (seconds) => slots.wakeIn(seconds));
        } catch (error) {
          // Unexpected (the database, most likely): pg-boss retries the job with backoff.
          await queue.fail(job.id, error as Error).catch(() => undefined);
          throw error;
        } finally {
          clearTimeout(slow);
          if (counted && target) release(target);
        }
      },
      onError: (error) => {
        if (this.running) this.logger.warn(`delivery: ${error.message}`);
      },
    });
    this.slots = slots;
    slots.start();
    this.listener = new NotificationListener({
      // LISTEN needs a session: DATABASE_DIRECT_URL bypasses a pooler (as the queue's start lock does).
      connectionString: queue.sessionConnectionString,
      applicationName: 'workbase-webhooks-listener',
      channels: [OUTBOX_CHANNEL, JOBS_CHANNEL],
      onNotification: (channel) => (channel === JOBS_CHANNEL ? slots.wake() : this.requestFanOut()),
      onConnected: () => {
        this.requestFanOut();
        slots.wake();
      },
      onError: (message) => this.logger.warn(message),
    });
    await this.listener.start();
    this.loop = this.fanOutLoop();
    this.logger.log('webhook worker started');
  }

  /** Runs fan-out as soon as the loop is free: now when it sleeps, once more when it is busy. */
  private requestFanOut(): void {
    this.fanOutRequested = true;
    this.wakeLoop?.();
  }

  /** Runs fan-out until no event is left (used by tests and the benchmark to flush). */
  async fanOutNow(): Promise<number> {
    if (!this.running) throw new Error('worker not started');
    let total = 0;
    for (;;) {
      const { events } = await this.fanOut.runOnce();
      total += events;
      if (events === 0) return total;
    }
  }

  private async fanOutLoop(): Promise<void> {
    let horizonRetryMs = HORIZON_RETRY_MS;
    while (this.running) {
      this.fanOutRequested = false;
      let busy = false;
      let waiting = false;
      try {
        const result = await this.fanOut.runOnce();
        busy = result.events > 0;
        waiting = result.waiting;
        if (result.deliveries > 0) this.slots?.wake();
        if (Date.now() - this.lastSweep > SWEEP_INTERVAL_MS) {
          this.lastSweep = Date.now();
          const { inactiveAfterSeconds, rateLimitPerSecond, rateLimitBurst } = this.config.webhooks;
          await this.endpoints.deactivateLongDegraded(inactiveAfterSeconds);
          await this.rateBuckets.deleteFullRateBuckets(rateLimitPerSecond, rateLimitBurst);
          await this.circuits.deleteIdleTargets();
        }
      } catch (error) {
        if (this.running) this.logger.warn(`fan-out failed: ${(error as Error).message}`);
      }
      if (busy || this.fanOutRequested || !this.running) {
        horizonRetryMs = HORIZON_RETRY_MS;
        continue;
      }
      // Idle: sleep until a notification, or the poll interval (sooner while events wait behind
      // an older transaction: that transaction's commit may notify nothing).
      const { fanOutIntervalMs } = this.config.webhooks;
      const pause = waiting ? Math.min(horizonRetryMs, fanOutIntervalMs) : fanOutIntervalMs;
      horizonRetryMs = waiting ? horizonRetryMs * 2 : HORIZON_RETRY_MS;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        this.wakeLoop = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeLoop = null;
    }
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wakeLoop?.();
    await this.listener?.stop();
    this.listener = null;
    await this.loop;
    await this.slots?.stop();
    this.slots = null;
    await this.queue.stop();
    this.logger.log('webhook worker stopped');
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }
}
