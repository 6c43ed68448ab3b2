import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Subscription, WebhookStatus } from '../domain/webhook';

export interface DeliverableWebhook {
  workspace_id: string;
  id: string;
  target_url: string;
  subscriptions: Subscription[];
  created_at: Date;
}

/**
 * The delivery side of the `webhooks` table: which endpoints receive events, and their health
 * (`active` → `degraded` → `inactive` on failures in a row, back to `active` on a success).
 */
@Injectable()
export class EndpointHealthRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  async deliverableWebhooks(workspaceIds: readonly string[]): Promise<DeliverableWebhook[]> {
    return this.transactions.query<DeliverableWebhook>(
      `SELECT workspace_id, id, target_url, subscriptions, created_at FROM webhooks WHERE workspace_id = ANY($1::uuid[]) AND status <> 'inactive'`,
      [workspaceIds],
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
   * One more failed attempt (`attempt` of the delivery `deliveryId`): `active` becomes `degraded`
   * after `degradedAfterFailures` failures in a row, `degraded` becomes `inactive` once it has
   * lasted `inactiveAfterSeconds`; `gone` (410) makes it inactive at once. Returns the resulting
   * status, or null when nothing was counted: the webhook is gone, or the delivery is no longer
   * pending at that attempt (another worker recorded it: a stale attempt does not count twice).
   */
  async markEndpointFailure(
    workspaceId: string,
    webhookId: string,
    failed: { deliveryId: string; attempt: number },
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
         AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.workspace_id = $1 AND d.id = $6 AND d.status = 'pending' AND d.attempts < $7)
       RETURNING status`,
      [workspaceId, webhookId, policy.degradedAfterFailures, policy.inactiveAfterSeconds, policy.gone, failed.deliveryId, failed.attempt],
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
}
