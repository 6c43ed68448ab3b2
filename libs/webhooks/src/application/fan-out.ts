import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import type { EventType } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { rateTargetKey } from '../domain/rate-target';
import { filterMatches } from '../domain/subscription-filter';
import { wireEvent, type WireEvent } from '../domain/wire-event';
import { DeliveryQueue } from '../infrastructure/delivery-queue';
import { DeliveryRepository, type NewDelivery } from '../infrastructure/delivery.repository';
import { type DeliverableWebhook, EndpointHealthRepository } from '../infrastructure/endpoint-health.repository';
import { compareOutboxPositions, type OutboxPosition } from '../domain/outbox-position';
import { OutboxCursorRepository, type OutboxEvent } from '../infrastructure/outbox-cursor.repository';

/** Lowest pg-boss priority given (an int column): a backlog deeper than this orders as this deep. */
const MIN_PRIORITY = -1_000_000_000;

/**
 * Look-ahead limits: each pass reads no more than `AHEAD_SCAN_LIMIT` events it has not read
 * before, takes the first `AHEAD_PER_WORKSPACE` of each workspace, and at most `AHEAD_LIMIT` in all;
 * a workspace with more than `AHEAD_DOMINANT` among them is the backlog itself (the cursor is
 * busy with it anyway) and gets none: reading its events ahead would only slow the cursor down.
 */
const AHEAD_SCAN_LIMIT = 20_000;
const AHEAD_PER_WORKSPACE = 10;
const AHEAD_LIMIT = 200;
const AHEAD_DOMINANT = 100;

export interface PassResult {
  /** Events the cursor consumed. */
  readonly events: number;
  /** Events fanned out ahead of the cursor. */
  readonly ahead: number;
  readonly deliveries: number;
  /** No event for the cursor, but committed ones wait behind an older running transaction. */
  readonly waiting: boolean;
}

type LockedCursor = OutboxPosition & { readonly ahead: OutboxPosition | null };

const IDLE = { events: 0, ahead: 0, deliveries: 0, waiting: false, batchPending: false, locked: false };
/** The cursor was locked by another worker: this pass learnt nothing about the outbox. */
const LOCKED = { ...IDLE, locked: true };

/**
 * Turns outbox events into deliveries, one per (webhook, event) whose subscriptions match, and
 * one pg-boss job per delivery, in the same transaction that moves the cursor: a crash at any
 * point either leaves all of it undone (the batch is read again) or all of it done.
 *
 * Three orderings keep one backlog from delaying everyone else:
 * - Look-ahead: the cursor reads the outbox in commit order, a batch per pass, so a workspace
 *   that commits 10,000 events puts seconds of fan-out ahead of every event committed after
 *   them. While more than a batch waits, each pass first fans out the first few events of each
 *   workspace among those it has not read yet (past the in-order batch, within the same
 *   commit-safe horizon) and records how far it has read (a second row of the cursor table), in
 *   one transaction committed before the batch is processed. A quiet workspace's event is queued
 *   one pass after its commit, whatever is ahead of it. When the cursor reaches the events
 *   read ahead, it finds the deliveries already made (up to that position only, so the common
 *   case costs no look-up) and leaves them out: they are neither made again nor paced or counted
 *   again. The unique (webhook, event) key stays the last word.
 * - Pacing per target: a target's jobs are due no faster than its rate limit lets them go (the
 *   generic cell rate algorithm over the target's `paced_until` clock, burst included), so a
 *   backlog for one receiver waits in the future instead of at the head of the queue.
 * - Fair share across workspaces: a job's priority is minus the number of deliveries its
 *   workspace has pending, so a workspace's first event goes before another's 10,000th.
 */
@Injectable()
export class FanOut {
  /**
   * Whether this process's last in-order batch was full: more than a batch may wait, so look
   * ahead. A pass that read nothing because the cursor was locked elsewhere, or because committed
   * events wait behind an older transaction (any transaction on the cluster holds the horizon
   * back), leaves it as it was: the backlog is still there when the horizon moves on.
   */
  private backlog = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly transactions: TransactionRunner,
    private readonly cursor: OutboxCursorRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly endpoints: EndpointHealthRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  /**
   * One pass: a look-ahead while a backlog waits, then one batch in commit order. Returns the
   * events the cursor consumed (0 when idle or locked elsewhere), those fanned out ahead of it,
   * the deliveries made, and, when the cursor consumed none, whether committed events wait for
   * an older transaction to end (`waiting`).
   */
  async runOnce(batchSize = 500): Promise<PassResult> {
    // A look-ahead that found something commits at once, so its deliveries do not wait for the
    // batch; one that found nothing goes on with the batch in the same transaction.
    let pass = await this.transactions.run(async () => {
      const cursor = await this.cursor.lockCursor();
      if (!cursor) return LOCKED;
      const ahead = this.backlog ? await this.lookAhead(cursor, batchSize) : null;
      if (ahead && ahead.events > 0) return { ...IDLE, ahead: ahead.events, deliveries: ahead.deliveries, batchPending: true };
      return this.inOrder(cursor, batchSize);
    });
    if (pass.batchPending) {
      const made = pass;
      const batch = await this.transactions.run(async () => {
        const cursor = await this.cursor.lockCursor();
        return cursor ? this.inOrder(cursor, batchSize) : LOCKED;
      });
      pass = { ...batch, ahead: made.ahead, deliveries: batch.deliveries + made.deliveries };
    }
    if (pass.events > 0 || !(pass.locked || pass.waiting)) this.backlog = pass.events === batchSize;
    const { batchPending: _, locked: __, ...result } = pass;
    return result;
  }

  /** The next batch in commit order: fanned out, and the cursor moved past it. */
  private async inOrder(cursor: LockedCursor, batchSize: number): Promise<PassResult & { batchPending: boolean; locked: boolean }> {
    const events = await this.cursor.eventsAfter(cursor, batchSize);
    if (events.length === 0) return { ...IDLE, waiting: await this.cursor.eventsBehindHorizon(cursor) };
    const readAhead = cursor.ahead && compareOutboxPositions(cursor.ahead, cursor) > 0 ? cursor.ahead : null;
    const deliveries = await this.fanOut(events, readAhead);
    const last = events[events.length - 1];
    await this.cursor.advanceCursor(last.tx_id, last.id);
    return { ...IDLE, events: events.length, deliveries };
  }

  /**
   * Fans out, ahead of the cursor, the first `AHEAD_PER_WORKSPACE` events of each workspace among
   * those the look-ahead has not read yet and that the in-order batch of this pass will not
   * take, and moves the look-ahead's position past what it read.
   */
  private async lookAhead(cursor: LockedCursor, batchSize: number): Promise<{ events: number; deliveries: number }> {
    let from = cursor.ahead;
    if (!from || compareOutboxPositions(from, cursor) <= 0) {
      // Nothing read ahead of the cursor yet: start past the batch the cursor takes next.
      from = await this.cursor.batchEnd(cursor, batchSize);
      if (!from) return { events: 0, deliveries: 0 };
    }
    const { events, scannedTo } = await this.cursor.eventsAhead(from, { scanLimit: AHEAD_SCAN_LIMIT, perWorkspace: AHEAD_PER_WORKSPACE, limit: AHEAD_LIMIT, dominant: AHEAD_DOMINANT });
    // At the limit, the events after the last one taken have not all been looked at.
    const last = events.length === AHEAD_LIMIT ? events[events.length - 1] : null;
    const readTo = last ? { lastTxId: last.tx_id, lastEventId: last.id } : (scannedTo ?? from);
    // Past the position nothing was read ahead, and the cursor is behind it: no delivery exists yet.
    const deliveries = events.length > 0 ? await this.fanOut(events, null) : 0;
    if (!cursor.ahead || compareOutboxPositions(readTo, cursor.ahead) !== 0) await this.cursor.advanceAhead(readTo);
    return { events: events.length, deliveries };
  }

  /**
   * The deliveries of `events` that do not exist yet, with their jobs, in the caller's
   * transaction; returns how many were made. Events up to `readAhead` may have been fanned out by
   * a look-ahead: their deliveries already made are left out before pacing and priorities are
   * worked out, so they take no place in either.
   */
  private async fanOut(events: readonly OutboxEvent[], readAhead: OutboxPosition | null): Promise<number> {
    const workspaceIds = [...new Set(events.map((event) => event.workspace_id))];
    const webhooks = await this.endpoints.deliverableWebhooks(workspaceIds);
    const byWorkspace = new Map<string, DeliverableWebhook[]>();
    for (const webhook of webhooks) byWorkspace.set(webhook.workspace_id, [...(byWorkspace.get(webhook.workspace_id) ?? []), webhook]);

    const matches: Array<{ event: OutboxEvent; webhook: DeliverableWebhook }> = [];
    for (const event of events) {
      for (const webhook of byWorkspace.get(event.workspace_id) ?? []) {
        if (event.occurred_at < webhook.created_at) continue;
        if (webhook.subscriptions.some((s) => s.event_type === event.event_type)) matches.push({ event, webhook });
      }
    }
    const existing = readAhead ? await this.madeAhead(matches, readAhead) : new Set<string>();
    const deliveries: Array<NewDelivery & { target: string }> = [];
    const wires = new Map<string, WireEvent<EventType>>();
    for (const { event, webhook } of matches) {
      if (existing.has(`${webhook.id}/${event.id}`)) continue;
      let wire = wires.get(event.id);
      if (!wire) wires.set(event.id, (wire = wireEvent(event)));
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
    if (deliveries.length === 0) return 0;
    const targets = targetKeys(deliveries);
    const { pending, paced } = await this.deliveries.fanOutState([...new Set(deliveries.map((d) => d.workspaceId))], [...new Set(targets.values())].map((hex) => Buffer.from(hex, 'hex')));
    const priorities = prioritise(deliveries, pending);
    const pacing = this.pace(deliveries, targets, paced);
    const inserted = await this.deliveries.insertDeliveries(
      deliveries.map(({ target: _, ...delivery }) => delivery),
      pacing,
    );
    await this.queue.enqueue(
      deliveries
        .filter((d) => inserted.has(d.id))
        .map((d) => ({
          data: { workspaceId: d.workspaceId, deliveryId: d.id, attempt: 1, priority: priorities.get(d.id), target: targets.get(d.target)! },
          startAfterSeconds: d.startAfterSeconds,
        })),
    );
    return inserted.size;
  }

  /** Of the matches up to the look-ahead's position, those whose delivery exists, as `webhookId/eventId`. */
  private async madeAhead(matches: ReadonlyArray<{ event: OutboxEvent; webhook: DeliverableWebhook }>, readAhead: OutboxPosition): Promise<Set<string>> {
    const candidates = matches.filter(({ event }) => compareOutboxPositions({ lastTxId: event.tx_id, lastEventId: event.id }, readAhead) <= 0);
    if (candidates.length === 0) return new Set();
    const webhooks = new Map(candidates.map(({ webhook }) => [webhook.id, { workspaceId: webhook.workspace_id, webhookId: webhook.id }]));
    const ids = candidates.map(({ event }) => BigInt(event.id));
    const [first, last] = ids.reduce(([lo, hi], id) => [id < lo ? id : lo, id > hi ? id : hi], [ids[0], ids[0]]);
    return this.deliveries.deliveriesMadeBetween([...webhooks.values()], first.toString(), last.toString());
  }

  /**
   * Sets each delivery's `startAfterSeconds` on its target's clock (`paced`: seconds ahead of now
   * by target key): the k-th delivery of a target is due at `max(now, clock + k / rate - (burst -
   * 1) / rate)`, and the clock moves on by one interval per delivery (fan-out runs under the
   * cursor lock, so no two fan-outs race on it). Returns each target's clock after them.
   */
  private pace(
    deliveries: Array<NewDelivery & { target: string }>,
    targets: ReadonlyMap<string, string>,
    paced: ReadonlyMap<string, number>,
  ): Array<{ target: Buffer; aheadSeconds: number }> {
    const { rateLimitPerSecond, rateLimitBurst } = this.config.webhooks;
    const interval = 1 / rateLimitPerSecond;
    const tolerance = (rateLimitBurst - 1) * interval;
    const clocks = new Map<string, number>();
    for (const delivery of deliveries) {
      const key = targets.get(delivery.target)!;
      const clock = clocks.get(key) ?? Math.max(0, paced.get(key) ?? 0);
      delivery.startAfterSeconds = Math.max(0, clock - tolerance);
      clocks.set(key, clock + interval);
    }
    return [...clocks].map(([key, aheadSeconds]) => ({ target: Buffer.from(key, 'hex'), aheadSeconds }));
  }
}

/** Hex of the target key (`rateTargetKey`) of each delivery's URL: several URLs can be one target (`…/hook?a` and `…/hook?b`), with one clock. */
function targetKeys(deliveries: ReadonlyArray<{ target: string }>): Map<string, string> {
  const keys = new Map<string, string>();
  for (const { target } of deliveries) if (!keys.has(target)) keys.set(target, rateTargetKey(target).toString('hex'));
  return keys;
}

/** Priority of each new delivery's job: minus its workspace's pending deliveries before it (`pending`, counted before these). */
function prioritise(deliveries: ReadonlyArray<NewDelivery>, pending: ReadonlyMap<string, number>): Map<string, number> {
  const depths = new Map(pending);
  const priorities = new Map<string, number>();
  for (const delivery of deliveries) {
    const depth = depths.get(delivery.workspaceId) ?? 0;
    depths.set(delivery.workspaceId, depth + 1);
    priorities.set(delivery.id, Math.max(MIN_PRIORITY, -depth));
  }
  return priorities;
}
