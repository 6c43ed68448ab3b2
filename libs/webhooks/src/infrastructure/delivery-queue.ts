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
}

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
  private readonly workers: string[] = [];

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
    if (!(await this.boss.getQueue(DELIVERY_QUEUE))) {
      await this.boss
        .createQueue(DELIVERY_QUEUE, { name: DELIVERY_QUEUE, policy: 'standard', retryLimit: 20, retryDelay: 1, retryBackoff: true, expireInSeconds: this.options.expireInSeconds })
        .catch(async (error: unknown) => {
          if (!(await this.boss.getQueue(DELIVERY_QUEUE))) throw error; // created meanwhile by another worker
        });
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

  async work(concurrency: number, batchSize: number, pollingIntervalSeconds: number, handler: (jobs: PgBoss.Job<DeliveryJob>[]) => Promise<void>): Promise<void> {
    for (let i = 0; i < concurrency; i++) {
      this.workers.push(await this.boss.work<DeliveryJob>(DELIVERY_QUEUE, { batchSize, pollingIntervalSeconds }, handler));
    }
  }

  /**
   * Wakes this process's workers, e.g. after fan-out created jobs or on a `JOBS_CHANNEL`
   * notification, instead of waiting for their poll.
   */
  wake(): void {
    for (const id of this.workers) {
      try {
        this.boss.notifyWorker(id);
      } catch {
        // a worker that stopped meanwhile
      }
    }
  }

  async stop(graceful = true): Promise<void> {
    await this.boss.stop({ graceful, wait: true, timeout: 10_000 });
  }
}
