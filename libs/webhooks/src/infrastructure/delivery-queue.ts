import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import { rowsOf } from './sql-rows';

/** Written by fan-out in its transaction: new delivery jobs can be fetched now. */
export const JOBS_CHANNEL = 'workbase_webhook_jobs';

export const DELIVERY_QUEUE = 'webhook-delivery';

/** One job = one automatic attempt of one delivery. */
export interface DeliveryJob {
  readonly workspaceId: string;
  readonly deliveryId: string;
  readonly attempt: number;
  /**
   * pg-boss priority (higher first), set at fan-out from the workspace's backlog and kept by the
   * delivery's later jobs: a workspace with a deep backlog does not queue ahead of one with none.
   */
  readonly priority?: number;
  /** How many times this attempt has already waited for its target (backs the next wait off). */
  readonly deferrals?: number;
}

export type FetchedJob = PgBoss.Job<DeliveryJob>;

export interface DeliveryQueueOptions {
  readonly connectionString: string;
  /** Seconds a job may stay active before pg-boss takes it for a crashed worker's and retries it. */
  readonly expireInSeconds: number;
  readonly maintenanceIntervalSeconds: number;
  readonly poolSize?: number;
}

/** pg-boss's `db` adapter over a TypeORM transaction: jobs commit or roll back with it. */
function inTransaction(manager: EntityManager): PgBoss.Db {
  return { executeSql: async (text, values) => ({ rows: rowsOf(await manager.query(text, values)) }) };
}

/**
 * The pg-boss queue in the application's PostgreSQL. Jobs are only ever created inside a caller's
 * transaction (the deliveries and the cursor move that caused them commit together). Job-level
 * retries exist only to recover from crashed workers; HTTP failures are scheduled by us as new
 * jobs with `startAfter`, following the webhook retry schedule.
 */
export class DeliveryQueue {
  private readonly boss: PgBoss;

  constructor(private readonly options: DeliveryQueueOptions) {
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      max: options.poolSize ?? 4,
      application_name: 'workbase-webhooks',
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds,
      monitorStateIntervalSeconds: 3600,
      schedule: false,
      archiveCompletedAfterSeconds: 3600,
    });
  }

  on(event: 'error', handler: (error: Error) => void): void {
    this.boss.on('error', handler);
  }

  async start(): Promise<void> {
    await this.boss.start();
    // Two workers starting on a new database both create the queue: one may fail (a duplicate, or
    // a deadlock between their DDL), so a failure is retried once the other one's has had time.
    for (let tries = 1; !(await this.boss.getQueue(DELIVERY_QUEUE)); tries++) {
      try {
        await this.boss.createQueue(DELIVERY_QUEUE, { name: DELIVERY_QUEUE, policy: 'standard', retryLimit: 20, retryDelay: 1, retryBackoff: true, expireInSeconds: this.options.expireInSeconds });
      } catch (error) {
        if (tries >= 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * tries + Math.random() * 100));
      }
    }
  }

  async enqueue(manager: EntityManager, jobs: readonly { data: DeliveryJob; startAfterSeconds?: number }[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.insert(
      jobs.map((job) => ({
        name: DELIVERY_QUEUE,
        data: job.data,
        // An interval is added to the database's now(): no clock skew between processes.
        startAfter: job.startAfterSeconds ? `${job.startAfterSeconds.toFixed(3)} seconds` : undefined,
        priority: job.data.priority ?? 0,
        expireInSeconds: this.options.expireInSeconds,
        retryLimit: 20,
        retryDelay: 1,
        retryBackoff: true,
      })),
      { db: inTransaction(manager) },
    );
    // Jobs due now: wake the workers of every process at commit, not at their next poll.
    if (jobs.some((job) => !job.startAfterSeconds)) await manager.query(`SELECT pg_notify($1, '')`, [JOBS_CHANNEL]);
  }

  /** Takes up to `batchSize` due jobs, highest priority first, then oldest. */
  async fetch(batchSize: number): Promise<FetchedJob[]> {
    return ((await this.boss.fetch<DeliveryJob>(DELIVERY_QUEUE, { batchSize })) ?? []) as FetchedJob[];
  }

  /** Completes a job inside the caller's transaction, so it ends with what the job did. */
  async complete(manager: EntityManager, jobId: string): Promise<void> {
    // pg-boss 10's JS takes (name, id, data, options): the data slot must be filled for `db` to be read.
    await this.boss.complete(DELIVERY_QUEUE, jobId, {}, { db: inTransaction(manager) });
  }

  /** Hands a job back to pg-boss, which retries it (with backoff) after an unexpected error. */
  async fail(jobId: string, error: Error): Promise<void> {
    await this.boss.fail(DELIVERY_QUEUE, jobId, { message: error.message });
  }

  async stop(graceful = true): Promise<void> {
    await this.boss.stop({ graceful, wait: true, timeout: 10_000 });
  }
}
