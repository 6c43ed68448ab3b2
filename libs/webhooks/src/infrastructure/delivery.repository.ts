import { Injectable } from '@nestjs/common';
import { type EventType, SecretBox } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { WebhookStatus } from '../domain/webhook';
import { COMPLETE_JOB_SQL, DELIVERY_QUEUE } from './delivery-queue';

export interface NewDelivery {
  workspaceId: string;
  id: string;
  webhookId: string;
  eventId: string;
  eventType: EventType;
  occurredAt: Date;
  body: string;
  /** Seconds from now until it is due (fan-out paces each target at its rate). */
  startAfterSeconds: number;
}

export interface DeliveryToAttempt {
  workspace_id: string;
  id: string;
  webhook_id: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
  target_url: string;
  secret: string;
  webhook_status: WebhookStatus;
  /** The webhook's failed attempts in a row (a success has something to reset only when > 0). */
  webhook_failures: number;
}

export interface AttemptRecord {
  readonly durationMs: number;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly succeeded: boolean;
}

export type WaitingReason = 'circuit_open' | 'target_busy' | 'rate_limited';

export interface StartedAttempt {
  readonly id: string;
  readonly startedAt: Date;
}

/**
 * Deliveries and their attempts (`webhook_deliveries`, `webhook_delivery_attempts`), workspace id
 * first: made by fan-out, read, started, finished and recorded by the attempts, in the caller's
 * transaction.
 */
@Injectable()
export class DeliveryRepository {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * The deliveries the given webhooks already have for events with ids from `firstEventId` to
   * `lastEventId`, as `webhookId/eventId`: one range scan of the (webhook, event) key per webhook,
   * which finds the few made by a look-ahead without probing for every event of a batch.
   */
  async deliveriesMadeBetween(webhooks: ReadonlyArray<{ workspaceId: string; webhookId: string }>, firstEventId: string, lastEventId: string): Promise<Set<string>> {
    if (webhooks.length === 0) return new Set();
    const rows = await this.transactions.query<{ webhook_id: string; event_id: string }>(
      `SELECT d.webhook_id, d.event_id::text FROM unnest($1::uuid[], $2::uuid[]) AS w(workspace_id, webhook_id)
       JOIN webhook_deliveries d ON d.workspace_id = w.workspace_id AND d.webhook_id = w.webhook_id AND d.event_id BETWEEN $3::bigint AND $4::bigint`,
      [webhooks.map((w) => w.workspaceId), webhooks.map((w) => w.webhookId), firstEventId, lastEventId],
    );
    return new Set(rows.map((row) => `${row.webhook_id}/${row.event_id}`));
  }

  /**
   * Inserts deliveries and moves their targets' pacing clocks (to `aheadSeconds` from now), in one
   * statement; returns the ids actually inserted (an event reaches a webhook once).
   */
  async insertDeliveries(deliveries: readonly NewDelivery[], pacing: ReadonlyArray<{ target: Buffer; aheadSeconds: number }>): Promise<Set<string>> {
    if (deliveries.length === 0) return new Set();
    const rows = await this.transactions.query<{ id: string }>(
      `WITH paced AS (
         INSERT INTO webhook_targets AS t (target_hash, paced_until)
         SELECT x.target, clock_timestamp() + make_interval(secs => x.ahead) FROM unnest($2::bytea[], $3::float8[]) AS x(target, ahead)
         ON CONFLICT (target_hash) DO UPDATE SET paced_until = EXCLUDED.paced_until, updated_at = clock_timestamp()
       )
       INSERT INTO webhook_deliveries (workspace_id, id, webhook_id, event_id, event_type, event_occurred_at, body, next_attempt_at)
       SELECT d."workspaceId", d.id, d."webhookId", d."eventId", d."eventType", d."occurredAt", d.body, clock_timestamp() + make_interval(secs => d."startAfterSeconds")
       FROM jsonb_to_recordset($1::jsonb) AS d("workspaceId" uuid, id uuid, "webhookId" uuid, "eventId" bigint, "eventType" text, "occurredAt" timestamptz, body text, "startAfterSeconds" float8)
       ON CONFLICT (workspace_id, webhook_id, event_id) DO NOTHING
       RETURNING id`,
      [JSON.stringify(deliveries), pacing.map((p) => p.target), pacing.map((p) => p.aheadSeconds)],
    );
    return new Set(rows.map((row) => row.id));
  }

  async findForAttempt(workspaceId: string, deliveryId: string): Promise<DeliveryToAttempt | null> {
    const [row] = await this.transactions.query<DeliveryToAttempt>(
      `SELECT d.workspace_id, d.id, d.webhook_id, d.body, d.status, d.attempts, w.target_url, w.secret, w.status AS webhook_status,
         w.consecutive_failures AS webhook_failures
       FROM webhook_deliveries d JOIN webhooks w ON w.workspace_id = d.workspace_id AND w.id = d.webhook_id
       WHERE d.workspace_id = $1 AND d.id = $2`,
      [workspaceId, deliveryId],
    );
    return row ? { ...row, secret: this.secrets.open(row.secret) } : null;
  }

  /**
   * What fan-out orders new deliveries by, in one round trip: the pending deliveries of each
   * workspace (fair share: a workspace with a deep backlog gets its new jobs ordered after those
   * of a workspace with none), and the seconds each target's pacing clock runs ahead of now
   * (absent: not ahead), by hex of the target key.
   */
  async fanOutState(workspaceIds: readonly string[], targets: readonly Buffer[]): Promise<{ pending: Map<string, number>; paced: Map<string, number> }> {
    const rows = await this.transactions.query<{ kind: 'pending' | 'paced'; key: string; value: number }>(
      `SELECT 'pending' AS kind, workspace_id::text AS key, count(*)::float8 AS value
       FROM webhook_deliveries WHERE status = 'pending' AND workspace_id = ANY($1::uuid[]) GROUP BY workspace_id
       UNION ALL
       SELECT 'paced', encode(target_hash, 'hex'), EXTRACT(EPOCH FROM paced_until - clock_timestamp())::float8
       FROM webhook_targets WHERE target_hash = ANY($2::bytea[]) AND paced_until IS NOT NULL`,
      [workspaceIds, targets],
    );
    const pending = new Map<string, number>();
    const paced = new Map<string, number>();
    for (const row of rows) (row.kind === 'pending' ? pending : paced).set(row.key, Number(row.value));
    return { pending, paced };
  }

  /**
   * A job that runs again for a delivery whose earlier run left an attempt unfinished: that run
   * died (pg-boss handed the job out again once it expired), so its attempt was interrupted.
   */
  async markInterruptedAttempts(workspaceId: string, deliveryId: string): Promise<number> {
    const rows = await this.transactions.query<{ id: string }>(
      `UPDATE webhook_delivery_attempts SET interrupted = true, finished_at = clock_timestamp()
       WHERE workspace_id = $1 AND delivery_id = $2 AND trigger = 'automatic' AND finished_at IS NULL RETURNING id`,
      [workspaceId, deliveryId],
    );
    return rows.length;
  }

  /**
   * A successful automatic attempt, in one statement: the attempt row finished, the delivery
   * succeeded (unless another worker recorded this attempt: optimistic on `attempts`), the job
   * completed, and the target's failure count and circuit reset when it had any (whatever this
   * attempt saw when it started: an answer always restarts the count), with when it last answered
   * (`answered_at`, see `in-flight-policy.ts`). Returns whether the
   * delivery was recorded by this call, and whether the target's circuit was open or half-open.
   */
  async recordSuccess(
    workspaceId: string,
    deliveryId: string,
    attemptId: string,
    attempt: number,
    record: AttemptRecord,
    jobId: string,
    target: Buffer,
  ): Promise<{ recorded: boolean; circuitWasOpen: boolean }> {
    const [row] = await this.transactions.query<{ recorded: boolean; circuit_was_open: boolean }>(
      `WITH finished AS (
         UPDATE webhook_delivery_attempts SET finished_at = clock_timestamp(), duration_ms = $4, status_code = $5, error = NULL, succeeded = true
         WHERE workspace_id = $1 AND delivery_id = $2 AND id = $3::bigint RETURNING 1
       ), delivered AS (
         UPDATE webhook_deliveries SET attempts = $6, status = 'succeeded', next_attempt_at = NULL, last_status_code = $5, last_error = NULL,
           waiting_reason = NULL, completed_at = clock_timestamp()
         WHERE workspace_id = $1 AND id = $2 AND attempts = $6 - 1 AND status = 'pending' RETURNING 1
       ), completed AS (
         ${COMPLETE_JOB_SQL('$7', '$8')}
       ), was AS (
         SELECT open_until IS NOT NULL AS was_open FROM webhook_targets
         WHERE target_hash = $9 AND (consecutive_failures > 0 OR open_until IS NOT NULL OR answered_at IS NULL OR answered_at < clock_timestamp() - interval '1 second')
       ), answered AS (
         -- answered_at is kept to the second: at most one write a second for a target that does well.
         UPDATE webhook_targets SET consecutive_failures = 0, failing_since = NULL, open_until = NULL, open_seconds = NULL, probe_started_at = NULL,
           answered_at = clock_timestamp(), updated_at = clock_timestamp()
         WHERE target_hash = $9 AND EXISTS (SELECT 1 FROM was) RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM delivered) AS recorded, COALESCE((SELECT was_open FROM was), false) AS circuit_was_open`,
      [workspaceId, deliveryId, attemptId, record.durationMs, record.statusCode, attempt, DELIVERY_QUEUE, jobId, target],
    );
    return { recorded: row.recorded, circuitWasOpen: row.circuit_was_open };
  }

  /** Writes an attempt as started, before its request is sent; it is in flight until `finishAttempt`. */
  async startAttempt(workspaceId: string, deliveryId: string, trigger: 'automatic' | 'replay', target: Buffer, leaseSeconds: number): Promise<StartedAttempt> {
    const [row] = await this.transactions.query<{ id: string; started_at: Date }>(
      `INSERT INTO webhook_delivery_attempts (workspace_id, delivery_id, trigger, started_at, target_hash, lease_until, succeeded)
       VALUES ($1, $2, $3, clock_timestamp(), $4, clock_timestamp() + make_interval(secs => $5), false)
       RETURNING id::text, started_at`,
      [workspaceId, deliveryId, trigger, target, leaseSeconds],
    );
    return { id: row.id, startedAt: row.started_at };
  }

  async finishAttempt(workspaceId: string, deliveryId: string, attemptId: string, record: AttemptRecord): Promise<void> {
    await this.transactions.query(
      `UPDATE webhook_delivery_attempts SET finished_at = clock_timestamp(), duration_ms = $4, status_code = $5, error = $6, succeeded = $7
       WHERE workspace_id = $1 AND delivery_id = $2 AND id = $3::bigint`,
      [workspaceId, deliveryId, attemptId, record.durationMs, record.statusCode, record.error, record.succeeded],
    );
  }

  /**
   * Records the outcome of automatic attempt number `attempt` if no other worker has (optimistic
   * on `attempts`). Returns false when the attempt was already recorded, so the caller schedules nothing.
   */
  async recordAutomaticOutcome(
    workspaceId: string,
    deliveryId: string,
    attempt: number,
    record: AttemptRecord,
    outcome: { status: 'pending' | 'succeeded' | 'failed'; nextAttemptAt: Date | null },
  ): Promise<boolean> {
    const updated = await this.transactions.query<{ id: string }>(
      `UPDATE webhook_deliveries SET attempts = $3, status = $4, next_attempt_at = $5, last_status_code = $6, last_error = $7, waiting_reason = NULL,
         completed_at = CASE WHEN $4 = 'pending' THEN NULL ELSE clock_timestamp() END
       WHERE workspace_id = $1 AND id = $2 AND attempts = $3 - 1 AND status = 'pending'
       RETURNING id`,
      [workspaceId, deliveryId, attempt, outcome.status, outcome.nextAttemptAt, record.statusCode, record.error],
    );
    return updated.length > 0;
  }

  async recordReplayOutcome(workspaceId: string, deliveryId: string, record: AttemptRecord): Promise<void> {
    await this.transactions.query(
      `UPDATE webhook_deliveries SET last_status_code = $3, last_error = $4,
         status = CASE WHEN $5 THEN 'succeeded' ELSE status END,
         next_attempt_at = CASE WHEN $5 THEN NULL ELSE next_attempt_at END,
         waiting_reason = CASE WHEN $5 THEN NULL ELSE waiting_reason END,
         completed_at = CASE WHEN $5 THEN clock_timestamp() ELSE completed_at END
       WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, deliveryId, record.statusCode, record.error, record.succeeded],
    );
  }

  /** A pending delivery that waits for its target (open circuit, attempts in flight, rate): the log says why and until when. */
  async markWaiting(workspaceId: string, deliveryId: string, reason: WaitingReason, waitSeconds: number): Promise<void> {
    await this.transactions.query(
      `UPDATE webhook_deliveries SET waiting_reason = $3, next_attempt_at = clock_timestamp() + make_interval(secs => $4)
       WHERE workspace_id = $1 AND id = $2 AND status = 'pending'`,
      [workspaceId, deliveryId, reason, waitSeconds],
    );
  }

  async cancel(workspaceId: string, deliveryId: string, reason: string): Promise<void> {
    await this.transactions.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', last_error = $3, next_attempt_at = NULL, waiting_reason = NULL, completed_at = clock_timestamp()
       WHERE workspace_id = $1 AND id = $2 AND status = 'pending'`,
      [workspaceId, deliveryId, reason],
    );
  }
}
