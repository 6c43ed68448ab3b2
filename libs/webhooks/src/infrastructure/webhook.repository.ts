import { Injectable } from '@nestjs/common';
import { type EventType, SecretBox } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Subscription, Webhook, WebhookStatus } from '../domain/webhook';

interface WebhookRow {
  workspace_id: string;
  id: string;
  target_url: string;
  subscriptions: Subscription[];
  status: WebhookStatus;
  created_at: Date;
}

export interface DeliveryRow {
  workspace_id: string;
  id: string;
  webhook_id: string;
  seq: string;
  event_id: string;
  event_type: EventType;
  event_occurred_at: Date;
  body: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  waiting_reason: 'circuit_open' | 'target_busy' | 'rate_limited' | null;
  created_at: Date;
  completed_at: Date | null;
}

export type AttemptOutcome = 'in_progress' | 'succeeded' | 'failed' | 'interrupted';

export interface AttemptRow {
  delivery_id: string;
  trigger: 'automatic' | 'replay';
  started_at: Date;
  duration_ms: number | null;
  status_code: number | null;
  error: string | null;
  succeeded: boolean;
  /** `interrupted`: written as started, never finished, and its lease is over (the worker died). */
  outcome: AttemptOutcome;
}

/** A target's circuit and attempts in flight, as the delivery log shows them. */
export interface TargetStateRow {
  circuit_state: 'closed' | 'open' | 'half_open';
  consecutive_failures: number;
  failing_since: Date | null;
  next_probe_at: Date | null;
  attempts_in_flight: number;
}

const WEBHOOK_COLUMNS = 'workspace_id, id, target_url, subscriptions, status, created_at';

function toWebhook(row: WebhookRow): Webhook {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    targetUrl: row.target_url,
    subscriptions: row.subscriptions,
    status: row.status,
    createdAt: row.created_at,
  };
}

/** Webhook endpoints and their delivery log, always within one workspace. */
@Injectable()
export class WebhookRepository {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly secrets: SecretBox,
  ) {}


  async insert(webhook: Webhook, secret: string): Promise<Webhook> {
    const [row] = await this.transactions.query<WebhookRow>(
      `INSERT INTO webhooks (workspace_id, id, target_url, subscriptions, secret) VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING ${WEBHOOK_COLUMNS}`,
      [webhook.workspaceId, webhook.id, webhook.targetUrl, JSON.stringify(webhook.subscriptions), this.secrets.seal(secret)],
    );
    return toWebhook(row);
  }

  async findById(workspaceId: string, webhookId: string, forUpdate = false): Promise<Webhook | null> {
    const [row] = await this.transactions.query<WebhookRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE workspace_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [workspaceId, webhookId],
    );
    return row ? toWebhook(row) : null;
  }

  async listInWorkspace(workspaceId: string, limit: number, offset: number): Promise<Webhook[]> {
    const rows = await this.transactions.query<WebhookRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE workspace_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [workspaceId, limit, offset],
    );
    return rows.map(toWebhook);
  }

  /** Changing the target or subscriptions of an inactive webhook makes it active again. */
  async update(workspaceId: string, webhookId: string, changes: { targetUrl?: string; subscriptions?: readonly Subscription[] }): Promise<Webhook | null> {
    const [row] = await this.transactions.query<WebhookRow>(
      `UPDATE webhooks SET
         target_url = COALESCE($3, target_url),
         subscriptions = COALESCE($4::jsonb, subscriptions),
         status = CASE WHEN status = 'inactive' THEN 'active' ELSE status END,
         consecutive_failures = CASE WHEN status = 'inactive' THEN 0 ELSE consecutive_failures END,
         failing_since = CASE WHEN status = 'inactive' THEN NULL ELSE failing_since END,
         degraded_since = CASE WHEN status = 'inactive' THEN NULL ELSE degraded_since END,
         inactive_reason = NULL,
         updated_at = clock_timestamp()
       WHERE workspace_id = $1 AND id = $2
       RETURNING ${WEBHOOK_COLUMNS}`,
      [workspaceId, webhookId, changes.targetUrl ?? null, changes.subscriptions ? JSON.stringify(changes.subscriptions) : null],
    );
    return row ? toWebhook(row) : null;
  }

  async delete(workspaceId: string, webhookId: string): Promise<boolean> {
    const rows = await this.transactions.query<{ id: string }>(`DELETE FROM webhooks WHERE workspace_id = $1 AND id = $2 RETURNING id`, [workspaceId, webhookId]);
    return rows.length > 0;
  }

  /** Newest first; `beforeSeq` continues after the last delivery of the previous page. */
  async listDeliveries(workspaceId: string, webhookId: string, limit: number, beforeSeq: string | null): Promise<DeliveryRow[]> {
    return this.transactions.query<DeliveryRow>(
      `SELECT * FROM webhook_deliveries
       WHERE workspace_id = $1 AND webhook_id = $2 AND ($3::bigint IS NULL OR seq < $3::bigint)
       ORDER BY seq DESC LIMIT $4`,
      [workspaceId, webhookId, beforeSeq, limit],
    );
  }

  async findDelivery(workspaceId: string, webhookId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const [row] = await this.transactions.query<DeliveryRow>(`SELECT * FROM webhook_deliveries WHERE workspace_id = $1 AND webhook_id = $2 AND id = $3`, [
      workspaceId,
      webhookId,
      deliveryId,
    ]);
    return row ?? null;
  }

  async attemptsOf(workspaceId: string, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.transactions.query<AttemptRow>(
      `SELECT delivery_id, trigger, started_at, duration_ms, status_code, error, succeeded,
         CASE WHEN interrupted OR (finished_at IS NULL AND lease_until < clock_timestamp()) THEN 'interrupted'
              WHEN finished_at IS NULL THEN 'in_progress'
              WHEN succeeded THEN 'succeeded' ELSE 'failed' END AS outcome
       FROM webhook_delivery_attempts
       WHERE workspace_id = $1 AND delivery_id = ANY($2::uuid[]) ORDER BY id`,
      [workspaceId, deliveryIds],
    );
  }

  /**
   * The target a webhook posts to (`target` = `rateTargetKey` of its URL): its circuit (closed
   * when it has no row) and its attempts in flight, from every workspace posting to it.
   */
  async targetState(target: Buffer): Promise<TargetStateRow> {
    const [row] = await this.transactions.query<TargetStateRow>(
      `SELECT COALESCE((SELECT CASE WHEN open_until IS NULL THEN 'closed' WHEN open_until > clock_timestamp() THEN 'open' ELSE 'half_open' END
                        FROM webhook_targets WHERE target_hash = $1), 'closed') AS circuit_state,
         COALESCE((SELECT consecutive_failures FROM webhook_targets WHERE target_hash = $1), 0) AS consecutive_failures,
         (SELECT failing_since FROM webhook_targets WHERE target_hash = $1) AS failing_since,
         (SELECT open_until FROM webhook_targets WHERE target_hash = $1) AS next_probe_at,
         (SELECT count(*)::int FROM webhook_delivery_attempts WHERE target_hash = $1 AND finished_at IS NULL AND lease_until > clock_timestamp()) AS attempts_in_flight`,
      [target],
    );
    return row;
  }
}
