import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { rateTargetKey } from '../domain/rate-target';
import type { Webhook } from '../domain/webhook';
import { type AttemptRow, type DeliveryRow, type TargetStateRow, WebhookRepository } from '../infrastructure/webhook.repository';

export type { AttemptOutcome, AttemptRow, DeliveryRow, TargetStateRow } from '../infrastructure/webhook.repository';

/** A page of a webhook's delivery log, newest first, with every attempt of its deliveries and the state of its target. */
export interface DeliveryLogPage {
  readonly deliveries: readonly DeliveryRow[];
  readonly attempts: readonly AttemptRow[];
  readonly target: TargetStateRow;
  /** The cursor of the next page; null on the last. */
  readonly nextCursor: string | null;
}

/** The management API's reads: webhooks of the caller's workspace, and their delivery log (workspace id first; another workspace's webhook is a 404). */
@Injectable()
export class WebhookQueries {
  constructor(private readonly webhooks: WebhookRepository) {}

  async list(workspaceId: string, limit: number, offset: number): Promise<Webhook[]> {
    return this.webhooks.listInWorkspace(workspaceId, limit, offset);
  }

  async get(workspaceId: string, webhookId: string): Promise<Webhook> {
    const webhook = await this.webhooks.findById(workspaceId, webhookId);
    if (!webhook) throw new NotFoundError(`Webhook with ID "${webhookId}" not found.`);
    return webhook;
  }

  /** `cursor`: a `nextCursor` of an earlier page (400 otherwise, once the webhook is known to exist). */
  async deliveryLog(workspaceId: string, webhookId: string, limit: number, cursor: string | undefined): Promise<DeliveryLogPage> {
    const webhook = await this.get(workspaceId, webhookId);
    const before = cursor === undefined ? null : decodeCursor(cursor);
    const rows = await this.webhooks.listDeliveries(workspaceId, webhookId, limit + 1, before);
    const deliveries = rows.slice(0, limit);
    const attempts = await this.webhooks.attemptsOf(workspaceId, deliveries.map((row) => row.id));
    const target = await this.webhooks.targetState(rateTargetKey(webhook.targetUrl));
    return { deliveries, attempts, target, nextCursor: rows.length > limit ? encodeCursor(deliveries[deliveries.length - 1].seq) : null };
  }

  /** One delivery of the webhook with its attempts. */
  async delivery(workspaceId: string, webhookId: string, deliveryId: string): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }> {
    const delivery = await this.webhooks.findDelivery(workspaceId, webhookId, deliveryId);
    if (!delivery) throw new NotFoundError(`Delivery with ID "${deliveryId}" not found.`);
    return { delivery, attempts: await this.webhooks.attemptsOf(workspaceId, [deliveryId]) };
  }
}

function encodeCursor(seq: string): string {
  return Buffer.from(`d:${seq}`).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^d:\d{1,18}$/.test(decoded)) throw new ValidationError('cursor is not a cursor returned by this endpoint');
  return decoded.slice(2);
}
