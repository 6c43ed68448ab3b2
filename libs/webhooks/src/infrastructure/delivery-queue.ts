import PgBoss from 'pg-boss';
import { type TransactionRunner, withStartLock } from '@workbase/shared/persistence';
import { ANSWERED_WITHIN_SECONDS, SLOW_AFTER_SECONDS, SLOW_LANE_FACTOR } from '../domain/in-flight-policy';

/** Written by fan-out in its transaction: new delivery jobs can be fetched now. */
export const JOBS_CHANNEL = 'workbase_webhook_jobs';

export const DELIVERY_QUEUE = 'webhook-delivery';
/** pg-boss's schema (its default). */
const SCHEMA = 'pgboss';

/**
 * pg-boss 10.4.2's completion of one active job (`completeJobs`), as an SQL fragment, so that a
 * statement of ours can complete the job with what it records.
 */
export const COMPLETE_JOB_SQL = (nameParam: string, idParam: string) =>
  `UPDATE ${SCHEMA}.job SET completed_on = now(), state = 'completed', output = NULL WHERE name = ${nameParam} AND id = ${idParam}::uuid AND state = 'active' RETURNING 1`;

/**
 * The queued jobs of a target (`targetHexParam`: hex of its key) that wait for a later time, made
 * due now; returns each one's workspace and delivery (`workspace_id`, `delivery_id`).
 */
const PULL_FORWARD_JOBS_SQL = (nameParam: string, targetHexParam: string) =>
  `UPDATE ${SCHEMA}.job SET start_after = now() WHERE name = ${nameParam} AND state = 'created' AND start_after > now() AND data->>'target' = ${targetHexParam}
   RETURNING (data->>'workspaceId')::uuid AS workspace_id, (data->>'deliveryId')::uuid AS delivery_id`;

/**
 * The probe of a circuit that opens until `atExpr`: unless a job of the target (`targetHexParam`)
 * is due by then already, its queued job due soonest after is made due then; returns its workspace
 * and delivery (`workspace_id`, `delivery_id`). Without it, a target whose deliveries all wait for
 * retries hours ahead would not be tried again, nor its return noticed, until then.
 */
const PROBE_JOB_SQL = (nameParam: string, targetHexParam: string, atExpr: string) =>
  `UPDATE ${SCHEMA}.job j SET start_after = ${atExpr}
   WHERE j.name = ${nameParam} AND j.id = (
     SELECT id FROM ${SCHEMA}.job WHERE name = ${nameParam} AND state = 'created' AND data->>'target' = ${targetHexParam} AND start_after > ${atExpr}
     ORDER BY start_after LIMIT 1)
   AND NOT EXISTS (SELECT 1 FROM ${SCHEMA}.job WHERE name = ${nameParam} AND state = 'created' AND data->>'target' = ${targetHexParam} AND start_after <= ${atExpr})
   RETURNING (j.data->>'workspaceId')::uuid AS workspace_id, (j.data->>'deliveryId')::uuid AS delivery_id`;

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
  /** Hex of the target's key (`rateTargetKey`) when the job was made: fetch takes few enough per target. */
  readonly target?: string;
}

export type FetchedJob = PgBoss.Job<DeliveryJob> & { readonly retryCount: number };

export interface DeliveryQueueOptions {
  readonly connectionString: string;
  /** Where the start lock's session connects: DATABASE_DIRECT_URL when set, else `connectionString`. */
  readonly sessionConnectionString?: string;
  /** Told when the start waits for another worker's start lock for more than a moment. */
  readonly onWaiting?: (line: string) => void;
  /** Told of pg-boss's background errors (its maintenance, its pool). */
  readonly onError?: (error: Error) => void;
  /** Seconds a job may stay active before pg-boss takes it for a crashed worker's and retries it. */
  readonly expireInSeconds: number;
  readonly maintenanceIntervalSeconds: number;
  readonly poolSize?: number;
}

/** pg-boss's `db` adapter over the current transaction (`TransactionRunner`): jobs commit or roll back with it. */
function inTransaction(transactions: TransactionRunner): PgBoss.Db {
  return { executeSql: async (text, values) => ({ rows: await transactions.query(text, values) }) };
}

/**
 * The pg-boss queue in the application's PostgreSQL: one provider per process (see
 * `webhooks.module.ts`), started and stopped by the worker. Jobs are only ever created, and
 * completed, inside the caller's transaction (`TransactionRunner.run`: the deliveries and the
 * cursor move that caused them commit together). Job-level retries exist only to recover from
 * crashed workers; HTTP failures are scheduled by us as new jobs with `startAfter`, following the
 * webhook retry schedule. pg-boss's job SQL lives here only.
 */
export class DeliveryQueue {
  private bossOrNull: PgBoss | null = null;

  constructor(
    private readonly options: DeliveryQueueOptions,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Where session-bound work connects (the start lock here, the worker's LISTEN): DATABASE_DIRECT_URL when set. */
  get sessionConnectionString(): string {
    return this.options.sessionConnectionString ?? this.options.connectionString;
  }

  private get boss(): PgBoss {
    if (!this.bossOrNull) throw new Error('the webhook delivery queue is not started');
    return this.bossOrNull;
  }

  /** A fresh pg-boss on each start: a worker stopped and started again gets a new pool. */
  private createBoss(): PgBoss {
    const options = this.options;
    const boss = new PgBoss({
      connectionString: options.connectionString,
      max: options.poolSize ?? 4,
      application_name: 'workbase-webhooks',
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds,
      monitorStateIntervalSeconds: 3600,
      schedule: false,
      archiveCompletedAfterSeconds: 3600,
    });
    if (options.onError) boss.on('error', options.onError);
    return boss;
  }

  async start(): Promise<void> {
    this.bossOrNull = this.createBoss();
    await this.boss.start();
    // pg-boss 10 creates a queue by attaching a partition to its job table; two workers doing that
    // at once on a new database can deadlock. An advisory lock held on a connection of its own
    // lets one create it while the others wait and then find it (withStartLock: a transaction
    // lock, so that it also holds, and is freed, behind a transaction-mode pooler).
    await withStartLock(
      this.sessionConnectionString,
      `${SCHEMA}.${DELIVERY_QUEUE}`,
      'webhook queue start',
      async () => {
        if (!(await this.boss.getQueue(DELIVERY_QUEUE))) {
          await this.boss.createQueue(DELIVERY_QUEUE, { name: DELIVERY_QUEUE, policy: 'standard', retryLimit: 20, retryDelay: 1, retryBackoff: true, expireInSeconds: this.options.expireInSeconds });
        }
      },
      this.options.onWaiting ?? (() => undefined),
    );
  }

  /** Queues jobs in the current transaction; those due now wake every process's workers at its commit. */
  async enqueue(jobs: readonly { data: DeliveryJob; startAfterSeconds?: number }[]): Promise<void> {
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
      { db: inTransaction(this.transactions) },
    );
    // Jobs due now: wake the workers of every process at commit, not at their next poll.
    if (jobs.some((job) => !job.startAfterSeconds)) await this.transactions.query(`SELECT pg_notify($1, '')`, [JOBS_CHANNEL]);
  }

  /**
   * Takes up to `batchSize` due jobs, highest priority first, then oldest, but no more of one
   * target than it has room for: none while its circuit is open, else (closed, or half-open: its
   * probes go out, up to the cap) `maxPerTarget` minus its attempts in flight that count (see
   * `in-flight-policy.ts`: the larger of those recorded by every worker and `localInFlight`, this
   * process's jobs under way and not yet slow, some of which have not written their attempt yet),
   * and never more than `SLOW_LANE_FACTOR` times the cap in flight in all. A blocked target's jobs stay queued and out of the
   * way instead of being fetched only to be put back: its backlog costs nothing while it waits.
   *
   * pg-boss's own fetch knows no such limit; this is its fetch statement (pg-boss 10.4.2
   * `fetchNextJob`: the same order, state change and retry count) over the `lookAhead` best due
   * jobs of targets with room, which are only read: just the chosen rows are locked. Processes
   * racing can still overshoot a cap by a little; the attempt's own checks catch most of that.
   */
  async fetch(
    batchSize: number,
    limits: { readonly maxPerTarget: number },
    localInFlight: ReadonlyMap<string, number>,
    lookAhead = Math.max(100, batchSize * 8),
  ): Promise<FetchedJob[]> {
    const { rows } = await this.boss.getDb().executeSql(
      `WITH local AS (
         SELECT key AS target, value::int AS n FROM jsonb_each_text($5::jsonb)
       ), in_flight AS (
         -- n: what counts against the cap (see in-flight-policy.ts); total: every attempt in flight.
         SELECT encode(a.target_hash, 'hex') AS target,
           count(*) FILTER (WHERE a.started_at > clock_timestamp() - make_interval(secs => $6)
             OR t.answered_at IS NULL OR t.answered_at < clock_timestamp() - make_interval(secs => $7))::int AS n,
           count(*)::int AS total
         FROM webhook_delivery_attempts a LEFT JOIN webhook_targets t ON t.target_hash = a.target_hash
         WHERE a.finished_at IS NULL AND a.lease_until > clock_timestamp() GROUP BY a.target_hash, t.answered_at
       ), circuits AS (
         SELECT encode(target_hash, 'hex') AS target, 0 AS room FROM webhook_targets WHERE open_until > clock_timestamp()
       ), room AS (
         SELECT target, LEAST($4 - GREATEST(COALESCE(f.n, 0), COALESCE(l.n, 0)), $4 * $8 - COALESCE(f.total, 0), COALESCE(c.room, $4)) AS room
         FROM in_flight f FULL JOIN local l USING (target) FULL JOIN circuits c USING (target)
       ), candidates AS (
         SELECT j.id, j.data->>'target' AS target, j.priority, j.created_on FROM ${SCHEMA}.job j
         WHERE j.name = $1 AND j.state < 'active' AND j.start_after < now()
           AND NOT EXISTS (SELECT 1 FROM room r WHERE r.target = j.data->>'target' AND r.room <= 0)
         ORDER BY j.priority DESC, j.created_on, j.id
         LIMIT $3
       ), ranked AS (
         SELECT c.id, c.target, c.priority, c.created_on, COALESCE(r.room, $4) AS room,
           row_number() OVER (PARTITION BY c.target ORDER BY c.priority DESC, c.created_on, c.id) AS k
         FROM candidates c LEFT JOIN room r ON r.target = c.target
       ), chosen AS (
         SELECT id FROM ranked WHERE target IS NULL OR k <= room ORDER BY priority DESC, created_on, id LIMIT $2
       ), locked AS (
         -- Only the chosen rows are locked (the window is only read); one taken meanwhile by another
         -- worker is skipped, or no longer matches once its update is seen.
         SELECT j.id FROM ${SCHEMA}.job j JOIN chosen ON chosen.id = j.id WHERE j.name = $1 AND j.state < 'active' FOR UPDATE OF j SKIP LOCKED
       )
       UPDATE ${SCHEMA}.job j SET
         state = 'active',
         started_on = now(),
         retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
       FROM locked
       WHERE j.name = $1 AND j.id = locked.id AND j.state < 'active'
       RETURNING j.id, j.name, j.data, j.retry_count AS "retryCount"`,
      [DELIVERY_QUEUE, batchSize, lookAhead, limits.maxPerTarget, JSON.stringify(Object.fromEntries(localInFlight)), SLOW_AFTER_SECONDS, ANSWERED_WITHIN_SECONDS, SLOW_LANE_FACTOR],
    );
    return rows as FetchedJob[];
  }

  /** Completes a job inside the current transaction, so it ends with what the job did. */
  async complete(jobId: string): Promise<void> {
    // pg-boss 10's JS takes (name, id, data, options): the data slot must be filled for `db` to be read.
    await this.boss.complete(DELIVERY_QUEUE, jobId, {}, { db: inTransaction(this.transactions) });
  }

  /**
   * An open circuit is probed when its open time is over: one of the target's waiting jobs is made
   * due then, unless one is already (see `PROBE_JOB_SQL`; so calling it again changes nothing). In
   * the caller's transaction, after the failed attempt's own retry is queued.
   */
  async scheduleProbe(target: Buffer): Promise<void> {
    await this.transactions.query(
      `WITH circuit AS (SELECT open_until FROM webhook_targets WHERE target_hash = $1 AND open_until > clock_timestamp()),
       probe AS (${PROBE_JOB_SQL('$2', '$3', '(SELECT open_until FROM circuit)')})
       UPDATE webhook_deliveries d SET next_attempt_at = (SELECT open_until FROM circuit)
       FROM probe p WHERE d.workspace_id = p.workspace_id AND d.id = p.delivery_id AND d.status = 'pending'`,
      [target, DELIVERY_QUEUE, target.toString('hex')],
    );
  }

  /**
   * A target whose circuit closed is back: the retries its deliveries wait for (scheduled while it
   * was down, some hours ahead on the default schedule) are due now, so its backlog goes out at
   * its cap and rate rather than at each delivery's next place in the schedule. The log's
   * `next_attempt_at` says so. Returns how many were brought forward.
   */
  async pullForwardTarget(target: Buffer): Promise<number> {
    const rows = await this.transactions.query<{ n: number }>(
      `WITH pulled AS (${PULL_FORWARD_JOBS_SQL('$1', '$2')})
       UPDATE webhook_deliveries d SET next_attempt_at = clock_timestamp(), waiting_reason = NULL
       FROM pulled p WHERE d.workspace_id = p.workspace_id AND d.id = p.delivery_id AND d.status = 'pending'
       RETURNING 1 AS n`,
      [DELIVERY_QUEUE, target.toString('hex')],
    );
    return rows.length;
  }

  /** Hands a job back to pg-boss, which retries it (with backoff) after an unexpected error. */
  async fail(jobId: string, error: Error): Promise<void> {
    await this.boss.fail(DELIVERY_QUEUE, jobId, { message: error.message });
  }

  async stop(graceful = true): Promise<void> {
    const boss = this.bossOrNull;
    this.bossOrNull = null;
    await boss?.stop({ graceful, wait: true, timeout: 10_000 });
  }
}
