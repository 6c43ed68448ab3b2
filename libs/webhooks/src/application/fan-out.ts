import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { TransactionRunner } from '@workbase/shared/persistence';
import { rateTargetKey } from '../domain/rate-target';
import { filterMatches } from '../domain/subscription-filter';
import { wireEvent } from '../domain/wire-event';
import { DeliveryQueue } from '../infrastructure/delivery-queue';
import { type DeliverableWebhook, DeliveryStore, type NewDelivery } from '../infrastructure/delivery-store';

/** Lowest pg-boss priority given (an int column): a backlog deeper than this orders as this deep. */
const MIN_PRIORITY = -1_000_000_000;

/**
 * Turns outbox events into deliveries, one per (webhook, event) whose subscriptions match, and
 * one pg-boss job per delivery, in the same transaction that moves the cursor: a crash at any
 * point either leaves all of it undone (the batch is read again) or all of it done.
 *
 * Two orderings keep one backlog from delaying everyone else:
 * - Pacing per target: a target's jobs are due no faster than its rate limit lets them go (the
 *   generic cell rate algorithm over the target's `paced_until` clock, burst included), so a
 *   backlog for one receiver waits in the future instead of at the head of the queue.
 * - Fair share across workspaces: a job's priority is minus the number of deliveries its
 *   workspace has pending, so a workspace's first event goes before another's 10,000th.
 */
@Injectable()
export class FanOut {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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

      const deliveries: Array<NewDelivery & { target: string }> = [];
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
            startAfterSeconds: 0,
            target: webhook.target_url,
          });
        }
      }
      const priorities = await this.prioritise(deliveries);
      await this.pace(deliveries);
      const inserted = await this.store.insertDeliveries(deliveries.map(({ target: _, ...delivery }) => delivery));
      await queue.enqueue(
        manager,
        deliveries
          .filter((d) => inserted.has(d.id))
          .map((d) => ({
            data: { workspaceId: d.workspaceId, deliveryId: d.id, attempt: 1, priority: priorities.get(d.id), target: rateTargetKey(d.target).toString('hex') },
            startAfterSeconds: d.startAfterSeconds,
          })),
      );
      const last = events[events.length - 1];
      await this.store.advanceCursor(last.tx_id, last.id);
      return { events: events.length, deliveries: inserted.size, waiting: false };
    });
  }

  /** Priority of each new delivery's job: minus the workspace's pending deliveries before it. */
  private async prioritise(deliveries: ReadonlyArray<NewDelivery>): Promise<Map<string, number>> {
    const pending = await this.store.pendingCounts([...new Set(deliveries.map((d) => d.workspaceId))]);
    const priorities = new Map<string, number>();
    for (const delivery of deliveries) {
      const depth = pending.get(delivery.workspaceId) ?? 0;
      pending.set(delivery.workspaceId, depth + 1);
      priorities.set(delivery.id, Math.max(MIN_PRIORITY, -depth));
    }
    return priorities;
  }

  /**
   * Sets each delivery's `startAfterSeconds` on its target's clock: the k-th delivery of a target
   * is due at `max(now, clock + k / rate - (burst - 1) / rate)`, and the clock moves on by one
   * interval per delivery (fan-out runs under the cursor lock, so no two fan-outs race on it).
   */
  private async pace(deliveries: Array<NewDelivery & { target: string }>): Promise<void> {
    if (deliveries.length === 0) return;
    const { rateLimitPerSecond, rateLimitBurst } = this.config.webhooks;
    const interval = 1 / rateLimitPerSecond;
    const tolerance = (rateLimitBurst - 1) * interval;
    // Several URLs can be one target (`…/hook?a` and `…/hook?b`): one clock per target key.
    const keyOf = new Map<string, string>();
    const targets = new Map<string, Buffer>();
    for (const delivery of deliveries) {
      if (keyOf.has(delivery.target)) continue;
      const key = rateTargetKey(delivery.target);
      keyOf.set(delivery.target, key.toString('hex'));
      targets.set(key.toString('hex'), key);
    }
    const ahead = await this.store.pacingOf([...targets.values()]);
    const clocks = new Map<string, number>();
    for (const delivery of deliveries) {
      const key = keyOf.get(delivery.target)!;
      const clock = clocks.get(key) ?? Math.max(0, ahead.get(key) ?? 0);
      delivery.startAfterSeconds = Math.max(0, clock - tolerance);
      clocks.set(key, clock + interval);
    }
    await this.store.setPacing([...targets].map(([key, target]) => ({ target, aheadSeconds: clocks.get(key)! })));
  }
}
