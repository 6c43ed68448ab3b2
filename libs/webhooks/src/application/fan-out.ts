import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import { filterMatches } from '../domain/subscription-filter';
import { wireEvent } from '../domain/wire-event';
import { DeliveryQueue } from '../infrastructure/delivery-queue';
import { type DeliverableWebhook, DeliveryStore, type NewDelivery } from '../infrastructure/delivery-store';

/**
 * Turns outbox events into deliveries, one per (webhook, event) whose subscriptions match, and
 * one pg-boss job per delivery, in the same transaction that moves the cursor: a crash at any
 * point either leaves all of it undone (the batch is read again) or all of it done.
 */
@Injectable()
export class FanOut {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly store: DeliveryStore,
  ) {}

  /**
   * Processes one batch; returns the number of events consumed (0 when idle or locked elsewhere),
   * and, when none, whether committed events wait for an older transaction to end (`waiting`).
   */
  async runOnce(queue: DeliveryQueue, batchSize = 500): Promise<{ events: number; deliveries: number; waiting: boolean }> {
    return this.transactions.run(async (manager) => {
      const cursor = await this.store.lockCursor();
      if (!cursor) return { events: 0, deliveries: 0, waiting: false };
      const events = await this.store.eventsAfter(cursor, batchSize);
      if (events.length === 0) return { events: 0, deliveries: 0, waiting: await this.store.eventsBehindHorizon(cursor) };
      const workspaceIds = [...new Set(events.map((event) => event.workspace_id))];
      const webhooks = await this.store.deliverableWebhooks(workspaceIds);
      const byWorkspace = new Map<string, DeliverableWebhook[]>();
      for (const webhook of webhooks) byWorkspace.set(webhook.workspace_id, [...(byWorkspace.get(webhook.workspace_id) ?? []), webhook]);

      const deliveries: NewDelivery[] = [];
      for (const event of events) {
        const wire = wireEvent(event);
        for (const webhook of byWorkspace.get(event.workspace_id) ?? []) {
          if (event.occurred_at < webhook.created_at) continue;
          const matched = webhook.subscriptions.some((s) => s.event_type === event.event_type && filterMatches(s.filter, wire));
          if (!matched) continue;
          deliveries.push({
            workspaceId: event.workspace_id,
            id: randomUUID(),
            webhookId: webhook.id,
            eventId: event.id,
            eventType: event.event_type,
            occurredAt: event.occurred_at,
            body: JSON.stringify({ webhook_id: webhook.id, events: [wire] }),
          });
        }
      }
      const inserted = await this.store.insertDeliveries(deliveries);
      await queue.enqueue(
        manager,
        deliveries.filter((d) => inserted.has(d.id)).map((d) => ({ data: { workspaceId: d.workspaceId, deliveryId: d.id, attempt: 1 } })),
      );
      const last = events[events.length - 1];
      await this.store.advanceCursor(last.tx_id, last.id);
      return { events: events.length, deliveries: inserted.size, waiting: false };
    });
  }
}
