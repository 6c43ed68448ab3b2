import { Injectable } from '@nestjs/common';
import { SecretBox } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { rowsOf } from './sql-rows';
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
}

export interface AttemptRecord {
  readonly trigger: 'automatic' | 'replay';
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly succeeded: boolean;
}

const CONSUMER = 'webhooks';

/** The worker's SQL: the fan-out cursor, deliveries, attempts and endpoint health. */
@Injectable()
export class DeliveryStore {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly secrets: SecretBox,
  ) {}

  private async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return rowsOf<T>(await this.transactions.manager().query(sql, params));
  }

  /** Locks the cursor for this transaction; null when another worker is fanning out. */
  async lockCursor(): Promise<{ lastTxId: string; lastEventId: string } | null> {
    const [row] = await this.query<{ last_tx_id: string; last_event_id: string }>(
      `SELECT last_tx_id::text, last_event_id::text FROM webhook_dispatch_cursor WHERE consumer = $1 FOR UPDATE SKIP LOCKED`,
      [CONSUMER],
    );
    return row ? { lastTxId: row.last_tx_id, lastEventId: row.last_event_id } : null;
  }

  /**
   * Events after the cursor in commit-safe order: only rows written by transactions older than the
   * oldest one still running, so no event can later appear behind the cursor.
   */
  async eventsAfter(cursor: { lastTxId: string; lastEventId: string }, limit: number): Promise<OutboxEvent[]> {
    return this.query<OutboxEvent>(
      `SELECT workspace_id, id::text, tx_id::text, event_type, entity_id, actor, payload, occurred_at
       FROM event_outbox
       WHERE (tx_id, id) > ($1::xid8, $2::bigint) AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY tx_id, id LIMIT $3`,
      [cursor.lastTxId, cursor.lastEventId, limit],
    );
  }

  /**
   * Whether committed events after the cursor wait behind the horizon of `eventsAfter` (a
   * transaction older than theirs is still running): fan-out should look again soon.
   */
  async eventsBehindHorizon(cursor: { lastTxId: string; lastEventId: string }): Promise<boolean> {
    const [row] = await this.query<{ waiting: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM event_outbox WHERE (tx_id, id) > ($1::xid8, $2::bigint)) AS waiting`,
      [cursor.lastTxId, cursor.lastEventId],
    );
    return row.waiting;
  }

  async advanceCursor(lastTxId: string, lastEventId: string): Promise<void> {
    await this.query(`UPDATE webhook_dispatch_cursor SET last_tx_id = $2::xid8, last_event_id = $3, updated_at = clock_timestamp() WHERE consumer = $1`, [
      CONSUMER,
      lastTxId,
      lastEventId,
    ]);
  }

  async deliverableWebhooks(workspaceIds: readonly string[]): Promise<DeliverableWebhook[]> {
    return this.query<DeliverableWebhook>(
      `SELECT workspace_id, id, subscriptions, created_at FROM webhooks WHERE workspace_id = ANY($1::uuid[]) AND status <> 'inactive'`,
      [workspaceIds],
    );
  }

  /** Inserts deliveries; returns the ids actually inserted (an event reaches a webhook once). */
  async insertDeliveries(deliveries: readonly NewDelivery[]): Promise<Set<string>> {
    if (deliveries.length === 0) return new Set();
    const rows = await this.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (workspace_id, id, webhook_id, event_id, event_type, event_occurred_at, body, next_attempt_at)
       SELECT d."workspaceId", d.id, d."webhookId", d."eventId", d."eventType", d."occurredAt", d.body, clock_timestamp()
       FROM jsonb_to_recordset($1::jsonb) AS d("workspaceId" uuid, id uuid, "webhookId" uuid, "eventId" bigint, "eventType" text, "occurredAt" timestamptz, body text)
       ON CONFLICT (workspace_id, webhook_id, event_id) DO NOTHING
       RETURNING id`,
      [JSON.stringify(deliveries)],
    );
    return new Set(rows.map((row) => row.id));
  }

  async findForAttempt(workspaceId: string, deliveryId: string): Promise<DeliveryToAttempt | null> {
    const [row] = await this.query<DeliveryToAttempt>(
      `SELECT d.workspace_id, d.id, d.webhook_id, d.body, d.status, d.attempts, w.target_url, w.secret, w.status AS webhook_status
       FROM webhook_deliveries d JOIN webhooks w ON w.workspace_id = d.workspace_id AND w.id = d.webhook_id
       WHERE d.workspace_id = $1 AND d.id = $2`,
      [workspaceId, deliveryId],
    );
    return row ? { ...row, secret: this.secrets.open(row.secret) } : null;
  }

  /**
   * Records automatic attempt number `attempt` if no other worker has (optimistic on `attempts`).
   * Returns false when the attempt was already recorded, so the caller schedules nothing.
   */
  async recordAutomaticAttempt(
    workspaceId: string,
    deliveryId: string,
    attempt: number,
    record: AttemptRecord,
    outcome: { status: 'pending' | 'succeeded' | 'failed'; nextAttemptAt: Date | null },
  ): Promise<boolean> {
    const updated = await this.query<{ id: string }>(
      `UPDATE webhook_deliveries SET attempts = $3, status = $4, next_attempt_at = $5, last_status_code = $6, last_error = $7,
         completed_at = CASE WHEN $4 = 'pending' THEN NULL ELSE clock_timestamp() END
       WHERE workspace_id = $1 AND id = $2 AND attempts = $3 - 1 AND status = 'pending'
       RETURNING id`,
      [workspaceId, deliveryId, attempt, outcome.status, outcome.nextAttemptAt, record.statusCode, record.error],
    );
    if (updated.length === 0) return false;
    await this.insertAttempt(workspaceId, deliveryId, record);
    return true;
  }

  async recordReplayAttempt(workspaceId: string, deliveryId: string, record: AttemptRecord): Promise<void> {
    await this.insertAttempt(workspaceId, deliveryId, record);
    await this.query(
      `UPDATE webhook_deliveries SET last_status_code = $3, last_error = $4,
         status = CASE WHEN $5 THEN 'succeeded' ELSE status END,
         next_attempt_at = CASE WHEN $5 THEN NULL ELSE next_attempt_at END,
         completed_at = CASE WHEN $5 THEN clock_timestamp() ELSE completed_at END
       WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, deliveryId, record.statusCode, record.error, record.succeeded],
    );
  }

  private async insertAttempt(workspaceId: string, deliveryId: string, record: AttemptRecord): Promise<void> {
    await this.query(
      `INSERT INTO webhook_delivery_attempts (workspace_id, delivery_id, trigger, started_at, duration_ms, status_code, error, succeeded)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [workspaceId, deliveryId, record.trigger, record.startedAt, record.durationMs, record.statusCode, record.error, record.succeeded],
    );
  }

  async cancel(workspaceId: string, deliveryId: string, reason: string): Promise<void> {
    await this.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', last_error = $3, next_attempt_at = NULL, completed_at = clock_timestamp()
       WHERE workspace_id = $1 AND id = $2 AND status = 'pending'`,
      [workspaceId, deliveryId, reason],
    );
  }

  async markEndpointHealthy(workspaceId: string, webhookId: string): Promise<void> {
    await this.query(
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
    const [row] = await this.query<{ status: WebhookStatus }>(
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
    const rows = await this.query<{ id: string }>(
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
    const taken = await this.query<{ tokens: number }>(
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
    const [row] = await this.query<{ available: number }>(
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
    const rows = await this.query<{ refilled_at: Date }>(
      `DELETE FROM webhook_target_rate_buckets WHERE refilled_at < clock_timestamp() - make_interval(secs => $1) RETURNING refilled_at`,
      [burst / rate + 1],
    );
    return rows.length;
  }
}
