import { Injectable } from '@nestjs/common';
import { SecretBox } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { ANSWERED_WITHIN_SECONDS, SLOW_AFTER_SECONDS } from '../domain/in-flight-policy';
import { COMPLETE_JOB_SQL, DELIVERY_QUEUE, PROBE_JOB_SQL, PULL_FORWARD_JOBS_SQL } from './delivery-queue';
import type { Subscription, WebhookStatus } from '../domain/webhook';

export interface OutboxEvent {
  workspace_id: string;
  id: string;
  tx_id: string;
  event_type: string;
  entity_id: Record<string, string>;
  actor: Record<string, unknown>;
  payload: Record<string, unknown>;
  occurred_at: Date;
}

export interface DeliverableWebhook {
  workspace_id: string;
  id: string;
  target_url: string;
  subscriptions: Subscription[];
  created_at: Date;
}

export interface NewDelivery {
  workspaceId: string;
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
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

export interface TargetCircuit {
  consecutive_failures: number;
  failing_since: string | null;
  open_until: string | null;
  open_seconds: number | null;
  /** Seconds until the circuit lets a probe through (<= 0: due); null when closed. */
  opens_in: number | null;
}

export interface StartedAttempt {
  readonly id: string;
  readonly startedAt: Date;
}

const CONSUMER = 'webhooks';
/**
 * A second row of the cursor table: how far fan-out's look-ahead has read. Deliveries exist ahead
 * of the cursor only up to there, so only there must the cursor look for them.
 */
const AHEAD_CONSUMER = 'webhooks:ahead';

/** A place in the outbox's commit order (`(tx_id, id)`), as the cursor keeps it. */
export interface OutboxPosition {
  readonly lastTxId: string;
  readonly lastEventId: string;
}

const positionOf = (row: { tx_id: string; id: string }): OutboxPosition => ({ lastTxId: row.tx_id, lastEventId: row.id });

/** Orders two positions by (tx_id, id), both 64-bit: compared as bigints, not as numbers or text. */
export function compareOutboxPositions(a: OutboxPosition, b: OutboxPosition): number {
  const tx = BigInt(a.lastTxId) - BigInt(b.lastTxId);
  if (tx !== 0n) return tx < 0n ? -1 : 1;
  const id = BigInt(a.lastEventId) - BigInt(b.lastEventId);
  return id === 0n ? 0 : id < 0n ? -1 : 1;
}


/** The worker's SQL: the fan-out cursor, deliveries, attempts and endpoint health. */
@Injectable()
export class DeliveryRepository {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly secrets: SecretBox,
  ) {}


  /**
   * Locks the cursor for this transaction; null when another worker is fanning out. With it, the
   * look-ahead's position (the last event it has read; null before its first look), which moves
   * only under this lock.
   */
  async lockCursor(): Promise<(OutboxPosition & { ahead: OutboxPosition | null }) | null> {
    const [row] = await this.transactions.query<{ last_tx_id: string; last_event_id: string; ahead_tx_id: string | null; ahead_event_id: string | null }>(
      `SELECT c.last_tx_id::text, c.last_event_id::text, a.last_tx_id::text AS ahead_tx_id, a.last_event_id::text AS ahead_event_id
       FROM webhook_dispatch_cursor c LEFT JOIN webhook_dispatch_cursor a ON a.consumer = $2
       WHERE c.consumer = $1 FOR UPDATE OF c SKIP LOCKED`,
      [CONSUMER, AHEAD_CONSUMER],
    );
    if (!row) return null;
    const ahead = row.ahead_tx_id !== null && row.ahead_event_id !== null ? { lastTxId: row.ahead_tx_id, lastEventId: row.ahead_event_id } : null;
    return { lastTxId: row.last_tx_id, lastEventId: row.last_event_id, ahead };
  }

  /** Moves the look-ahead's position (under the cursor's lock, in the look-ahead's transaction). */
  async advanceAhead(position: OutboxPosition): Promise<void> {
    await this.transactions.query(
      `INSERT INTO webhook_dispatch_cursor AS c (consumer, last_tx_id, last_event_id) VALUES ($1, $2::xid8, $3)
       ON CONFLICT (consumer) DO UPDATE SET last_tx_id = EXCLUDED.last_tx_id, last_event_id = EXCLUDED.last_event_id, updated_at = clock_timestamp()`,
      [AHEAD_CONSUMER, position.lastTxId, position.lastEventId],
    );
  }

  /**
   * Events after the cursor in commit-safe order: only rows written by transactions older than the
   * oldest one still running, so no event can later appear behind the cursor.
   */
  async eventsAfter(cursor: OutboxPosition, limit: number): Promise<OutboxEvent[]> {
    return this.transactions.query<OutboxEvent>(
      // Ordered by the columns (`e.`), not by the text output columns of the same names: text order
      // ("1000" < "999") cut by the limit would move the cursor past events it never read.
      `SELECT e.workspace_id, e.id::text, e.tx_id::text, e.event_type, e.entity_id, e.actor, e.payload, e.occurred_at
       FROM event_outbox e
       WHERE (e.tx_id, e.id) > ($1::xid8, $2::bigint) AND e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY e.tx_id, e.id LIMIT $3`,
      [cursor.lastTxId, cursor.lastEventId, limit],
    );
  }

  /**
   * Whether committed events after the cursor wait behind the horizon of `eventsAfter` (a
   * transaction older than theirs is still running): fan-out should look again soon.
   */
  async eventsBehindHorizon(cursor: OutboxPosition): Promise<boolean> {
    const [row] = await this.transactions.query<{ waiting: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM event_outbox WHERE (tx_id, id) > ($1::xid8, $2::bigint)) AS waiting`,
      [cursor.lastTxId, cursor.lastEventId],
    );
    return row.waiting;
  }

  /**
   * Where the in-order batch of `batchSize` events after the cursor ends, within the commit-safe
   * horizon; null when fewer are waiting (the next batch takes them all, nothing to look ahead for).
   */
  async batchEnd(cursor: OutboxPosition, batchSize: number): Promise<OutboxPosition | null> {
    const [row] = await this.transactions.query<{ tx_id: string; id: string }>(
      `SELECT e.tx_id::text, e.id::text FROM event_outbox e
       WHERE (e.tx_id, e.id) > ($1::xid8, $2::bigint) AND e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY e.tx_id, e.id OFFSET $3 LIMIT 1`,
      [cursor.lastTxId, cursor.lastEventId, batchSize - 1],
    );
    return row ? { lastTxId: row.tx_id, lastEventId: row.id } : null;
  }

  /**
   * Fan-out's look-ahead: of the (at most `scanLimit`) commit-safe events after `from` that some
   * deliverable webhook of their workspace subscribes to by type (filters are left to fan-out),
   * the first `perWorkspace` of each workspace with no more than `dominant` of them (one with more
   * is the backlog, left to the cursor), at most `limit` in all, in commit order; and the position
   * of the last event scanned (null when none was).
   */
  async eventsAhead(
    from: OutboxPosition,
    limits: { scanLimit: number; perWorkspace: number; limit: number; dominant: number },
  ): Promise<{ events: OutboxEvent[]; scannedTo: OutboxPosition | null }> {
    const rows = await this.transactions.query<OutboxEvent & { scanned_to: boolean }>(
      `WITH scanned AS MATERIALIZED (
         SELECT workspace_id, id, tx_id, event_type FROM event_outbox
         WHERE (tx_id, id) > ($1::xid8, $2::bigint) AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
         ORDER BY tx_id, id LIMIT $3
       ), subscribed AS (
         SELECT DISTINCT w.workspace_id, s->>'event_type' AS event_type
         FROM webhooks w CROSS JOIN LATERAL jsonb_array_elements(w.subscriptions) s
         WHERE w.workspace_id IN (SELECT DISTINCT workspace_id FROM scanned) AND w.status <> 'inactive'
       ), ranked AS (
         SELECT sc.workspace_id, sc.id, sc.tx_id, row_number() OVER (PARTITION BY sc.workspace_id ORDER BY sc.tx_id, sc.id) AS k,
           count(*) OVER (PARTITION BY sc.workspace_id) AS n
         FROM scanned sc JOIN subscribed USING (workspace_id, event_type)
       ), chosen AS (
         SELECT workspace_id, id FROM ranked WHERE k <= $4 AND n <= $6 ORDER BY tx_id, id LIMIT $5
       )
       SELECT e.workspace_id, e.id::text, e.tx_id::text, e.event_type, e.entity_id, e.actor, e.payload, e.occurred_at, false AS scanned_to
       FROM chosen JOIN event_outbox e USING (workspace_id, id)
       UNION ALL
       (SELECT NULL, sc.id::text, sc.tx_id::text, NULL, NULL, NULL, NULL, NULL, true FROM scanned sc ORDER BY sc.tx_id DESC, sc.id DESC LIMIT 1)`,
      [from.lastTxId, from.lastEventId, limits.scanLimit, limits.perWorkspace, limits.limit, limits.dominant],
    );
    const end = rows.find((row) => row.scanned_to);
    const events = rows
      .filter((row) => !row.scanned_to)
      .map(({ scanned_to: _, ...event }) => event)
      .sort((a, b) => compareOutboxPositions(positionOf(a), positionOf(b)));
    return { events, scannedTo: end ? positionOf(end) : null };
  }

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

  async advanceCursor(lastTxId: string, lastEventId: string): Promise<void> {
    await this.transactions.query(`UPDATE webhook_dispatch_cursor SET last_tx_id = $2::xid8, last_event_id = $3, updated_at = clock_timestamp() WHERE consumer = $1`, [
      CONSUMER,
      lastTxId,
      lastEventId,
    ]);
  }

  async deliverableWebhooks(workspaceIds: readonly string[]): Promise<DeliverableWebhook[]> {
    return this.transactions.query<DeliverableWebhook>(
      `SELECT workspace_id, id, target_url, subscriptions, created_at FROM webhooks WHERE workspace_id = ANY($1::uuid[]) AND status <> 'inactive'`,
      [workspaceIds],
    );
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
   * What decides whether an attempt may start on a target, in one round trip: its circuit (null
   * when it has no row: closed, no failures), its attempts in flight (started, unfinished, lease
   * running) that count against its cap (see `in-flight-policy.ts`) and all of them, with the
   * seconds until the first lease ends.
   */
  async targetState(target: Buffer): Promise<{ circuit: TargetCircuit | null; inFlight: number; totalInFlight: number; firstEndsIn: number }> {
    const [row] = await this.transactions.query<{ circuit: TargetCircuit | null; in_flight: number; total_in_flight: number; first_ends_in: number | null }>(
      `WITH t AS (SELECT * FROM webhook_targets WHERE target_hash = $1)
       SELECT
         (SELECT jsonb_build_object(
            'consecutive_failures', consecutive_failures, 'failing_since', failing_since, 'open_until', open_until, 'open_seconds', open_seconds,
            'opens_in', EXTRACT(EPOCH FROM open_until - clock_timestamp())::float8)
          FROM t) AS circuit,
         count(*) FILTER (WHERE a.started_at > clock_timestamp() - make_interval(secs => $2)
           OR NOT EXISTS (SELECT 1 FROM t WHERE t.answered_at >= clock_timestamp() - make_interval(secs => $3)))::int AS in_flight,
         count(*)::int AS total_in_flight,
         EXTRACT(EPOCH FROM min(a.lease_until) - clock_timestamp())::float8 AS first_ends_in
       FROM webhook_delivery_attempts a WHERE a.target_hash = $1 AND a.finished_at IS NULL AND a.lease_until > clock_timestamp()`,
      [target, SLOW_AFTER_SECONDS, ANSWERED_WITHIN_SECONDS],
    );
    return { circuit: row.circuit, inFlight: row.in_flight, totalInFlight: row.total_in_flight, firstEndsIn: Number(row.first_ends_in ?? 0) };
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

  /**
   * One more failed attempt on a target (no answer, or a 5xx). A closed circuit opens once
   * `threshold` attempts in a row have had no answer and the first of them is at least
   * `failingSeconds` old (any answer restarts the count: a target that answers some of its
   * attempts never opens), for `openSeconds`. A failure while half-open (the open time is over:
   * the probes go out) opens it again for twice as long as the last time, up to `maxOpenSeconds`.
   * Either way never for longer than `retryInSeconds`, when the failed attempt's delivery is retried
   * (null: not retried, no bound). A failure while open (an attempt started before it opened) only
   * counts. Returns whether it is open now.
   */
  async recordTargetFailure(
    target: Buffer,
    policy: { threshold: number; failingSeconds: number; openSeconds: number; maxOpenSeconds: number; retryInSeconds: number | null },
  ): Promise<boolean> {
    const [row] = await this.transactions.query<{ open: boolean }>(
      // (LEAST ignores NULLs: no retry, no bound.)
      `INSERT INTO webhook_targets AS t (target_hash, consecutive_failures, failing_since)
       VALUES ($1, 1, clock_timestamp())
       ON CONFLICT (target_hash) DO UPDATE SET
         consecutive_failures = t.consecutive_failures + 1,
         failing_since = COALESCE(t.failing_since, clock_timestamp()),
         open_seconds = CASE
           WHEN t.open_until IS NULL AND t.consecutive_failures + 1 >= $2 AND t.failing_since <= clock_timestamp() - make_interval(secs => $3) THEN $4::float8
           WHEN t.open_until <= clock_timestamp() THEN LEAST($5::float8, COALESCE(t.open_seconds * 2, $4::float8))
           ELSE t.open_seconds END,
         open_until = CASE
           WHEN t.open_until IS NULL AND t.consecutive_failures + 1 >= $2 AND t.failing_since <= clock_timestamp() - make_interval(secs => $3)
             THEN clock_timestamp() + make_interval(secs => LEAST($4::float8, $6::float8))
           WHEN t.open_until <= clock_timestamp()
             THEN clock_timestamp() + make_interval(secs => LEAST($5::float8, COALESCE(t.open_seconds * 2, $4::float8), $6::float8))
           ELSE t.open_until END,
         updated_at = clock_timestamp()
       RETURNING COALESCE(open_until > clock_timestamp(), false) AS open`,
      [target, policy.threshold, policy.failingSeconds, policy.openSeconds, policy.maxOpenSeconds, policy.retryInSeconds],
    );
    return row.open;
  }

  /**
   * The target answered (a 2xx, or a 4xx: anything but a 5xx): its circuit closes and its failure
   * count restarts. Returns whether the circuit was open or half-open (see `pullForwardTarget`).
   */
  async recordTargetAnswered(target: Buffer): Promise<boolean> {
    const rows = await this.transactions.query<{ was_open: boolean }>(
      `WITH was AS (SELECT open_until IS NOT NULL AS was_open FROM webhook_targets WHERE target_hash = $1)
       UPDATE webhook_targets SET consecutive_failures = 0, failing_since = NULL, open_until = NULL, open_seconds = NULL, probe_started_at = NULL,
         answered_at = clock_timestamp(), updated_at = clock_timestamp()
       WHERE target_hash = $1
       RETURNING (SELECT was_open FROM was) AS was_open`,
      [target],
    );
    return rows[0]?.was_open ?? false;
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

  /** Targets with nothing to remember (closed, not failing, pacing clock behind): no row is the same. */
  async deleteIdleTargets(): Promise<number> {
    const rows = await this.transactions.query<{ n: number }>(
      `DELETE FROM webhook_targets WHERE consecutive_failures = 0 AND open_until IS NULL
         AND (paced_until IS NULL OR paced_until < clock_timestamp() - interval '1 minute') RETURNING 1 AS n`,
    );
    return rows.length;
  }

  async cancel(workspaceId: string, deliveryId: string, reason: string): Promise<void> {
    await this.transactions.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', last_error = $3, next_attempt_at = NULL, waiting_reason = NULL, completed_at = clock_timestamp()
       WHERE workspace_id = $1 AND id = $2 AND status = 'pending'`,
      [workspaceId, deliveryId, reason],
    );
  }

  async markEndpointHealthy(workspaceId: string, webhookId: string): Promise<void> {
    await this.transactions.query(
      `UPDATE webhooks SET status = 'active', consecutive_failures = 0, failing_since = NULL, degraded_since = NULL, inactive_reason = NULL
       WHERE workspace_id = $1 AND id = $2 AND (status <> 'active' OR consecutive_failures > 0)`,
      [workspaceId, webhookId],
    );
  }

  /**
   * One more failed attempt: `active` becomes `degraded` after `degradedAfterFailures` failures in
   * a row, `degraded` becomes `inactive` once it has lasted `inactiveAfterSeconds`; `gone` (410)
   * makes it inactive at once. Returns the resulting status.
   */
  async markEndpointFailure(
    workspaceId: string,
    webhookId: string,
    policy: { degradedAfterFailures: number; inactiveAfterSeconds: number; gone: boolean },
  ): Promise<WebhookStatus | null> {
    const [row] = await this.transactions.query<{ status: WebhookStatus }>(
      `UPDATE webhooks SET
         consecutive_failures = consecutive_failures + 1,
         failing_since = COALESCE(failing_since, clock_timestamp()),
         status = CASE
           WHEN $5 THEN 'inactive'
           WHEN status = 'degraded' AND degraded_since < clock_timestamp() - make_interval(secs => $4) THEN 'inactive'
           WHEN status = 'active' AND consecutive_failures + 1 >= $3 THEN 'degraded'
           ELSE status END,
         degraded_since = CASE WHEN status = 'active' AND consecutive_failures + 1 >= $3 THEN clock_timestamp() ELSE degraded_since END,
         inactive_reason = CASE
           WHEN status = 'inactive' THEN inactive_reason
           WHEN $5 THEN 'target answered 410 Gone'
           WHEN status = 'degraded' AND degraded_since < clock_timestamp() - make_interval(secs => $4) THEN 'failing for too long'
           ELSE inactive_reason END
       WHERE workspace_id = $1 AND id = $2
       RETURNING status`,
      [workspaceId, webhookId, policy.degradedAfterFailures, policy.inactiveAfterSeconds, policy.gone],
    );
    return row?.status ?? null;
  }

  /** Degraded endpoints that have failed for the whole window become inactive even without traffic. */
  async deactivateLongDegraded(inactiveAfterSeconds: number): Promise<number> {
    const rows = await this.transactions.query<{ id: string }>(
      `UPDATE webhooks SET status = 'inactive', inactive_reason = 'failing for too long'
       WHERE status = 'degraded' AND degraded_since < clock_timestamp() - make_interval(secs => $1) RETURNING id`,
      [inactiveAfterSeconds],
    );
    return rows.length;
  }

  /**
   * Takes one token from the target's bucket (capacity `burst`, refilled at `rate` per second),
   * atomically across every worker and every webhook posting to that target (`target` is
   * `rateTargetKey` of its URL). Returns 0 when taken, else the seconds until one is available.
   */
  async takeRateToken(target: Buffer, rate: number, burst: number): Promise<number> {
    const taken = await this.transactions.query<{ tokens: number }>(
      `INSERT INTO webhook_target_rate_buckets AS b (target_hash, tokens, refilled_at)
       VALUES ($1, $2::float8 - 1, clock_timestamp())
       ON CONFLICT (target_hash) DO UPDATE SET
         tokens = LEAST($2::float8, b.tokens + EXTRACT(EPOCH FROM clock_timestamp() - b.refilled_at)::float8 * $3::float8) - 1,
         refilled_at = clock_timestamp()
       WHERE LEAST($2::float8, b.tokens + EXTRACT(EPOCH FROM clock_timestamp() - b.refilled_at)::float8 * $3::float8) >= 1
       RETURNING tokens`,
      [target, burst, rate],
    );
    if (taken.length > 0) return 0;
    const [row] = await this.transactions.query<{ available: number }>(
      `SELECT LEAST($2::float8, tokens + EXTRACT(EPOCH FROM clock_timestamp() - refilled_at)::float8 * $3::float8) AS available
       FROM webhook_target_rate_buckets WHERE target_hash = $1`,
      [target, burst, rate],
    );
    const available = row ? Number(row.available) : 0;
    return Math.max(0.001, (1 - available) / rate);
  }

  /**
   * Deletes buckets idle long enough to be full again (a full bucket and no row are the same), so
   * targets no webhook uses any more do not pile up. A bucket taken from meanwhile is kept: the
   * DELETE re-checks `refilled_at` on the row it locks.
   */
  async deleteFullRateBuckets(rate: number, burst: number): Promise<number> {
    const rows = await this.transactions.query<{ refilled_at: Date }>(
      `DELETE FROM webhook_target_rate_buckets WHERE refilled_at < clock_timestamp() - make_interval(secs => $1) RETURNING refilled_at`,
      [burst / rate + 1],
    );
    return rows.length;
  }
}
