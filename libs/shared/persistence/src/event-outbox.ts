import { Injectable } from '@nestjs/common';
import type { DomainEvent } from '@workbase/shared/kernel';
import { auditEntriesOf, auditInsert } from './audit-trail';
import { rememberLast } from './per-object';
import { TransactionRunner } from './transaction-runner';
import { unnestRows } from './unnest-rows';

/** Notified (at commit) by every transaction that recorded events: new events are committed. */
export const OUTBOX_CHANNEL = 'workbase_outbox';

/**
 * The transactional outbox: a use case records its events in the same transaction as the change
 * they describe, so an event exists if and only if the change committed. Webhook fan-out and the
 * change feed (libs/events, `GET /v2/events`) read the table in `(tx_id, id)` order behind the
 * commit horizon; the feed's retention sweep is its only deleter, and never deletes a row the
 * fan-out's cursor (`webhook_dispatch_cursor`) has not passed.
 */
@Injectable()
export class EventOutbox {
  constructor(private readonly transactions: TransactionRunner) {}

  async record(...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (!this.transactions.inTransaction()) {
      throw new Error('EventOutbox.record must be called inside TransactionRunner.run, with the change it describes');
    }
    const params: unknown[] = [];
    await this.transactions.manager().query(`WITH ${recordedEvents(events, params)} SELECT ${OUTBOX_NOTIFY}`, params);
  }
}

/**
 * The `WITH` items that record `events`: their outbox rows and their audit entries (one each, in
 * the same statement and so the same transaction as the change). For a statement that records its
 * change's events itself; it must also select `OUTBOX_NOTIFY`, as `record` does.
 */
export function recordedEvents(events: readonly DomainEvent[], params: unknown[]): string {
  // Many events (a batch of writes) go as arrays: the VALUES list would take five parameters per
  // event and cross PostgreSQL's 65,535 at ~13,000 events.
  const insert = events.length > MANY_EVENTS ? outboxInsertMany(events, params) : outboxInsert(events, params);
  return `recorded AS (${insert}), audited AS (${auditInsert(auditEntriesOf(events), params)})`;
}

/**
 * The INSERT of `events` into the outbox, its parameters appended to `params`: for a statement
 * that records its change's events itself (one round trip instead of two). Such a statement must
 * run in a transaction and also select `OUTBOX_NOTIFY`, as `record` does.
 */
export function outboxInsert(events: readonly DomainEvent[], params: unknown[]): string {
  const rows = events.map((event) => {
    const o = params.length;
    params.push(event.workspaceId, event.eventType, JSON.stringify(event.id), JSON.stringify(event.actor), JSON.stringify(event.payload ?? {}));
    return `($${o + 1}, $${o + 2}, $${o + 3}::jsonb, $${o + 4}::jsonb, $${o + 5}::jsonb)`;
  });
  return `INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor, payload) VALUES ${rows.join(', ')}`;
}

/** From this many events on, `record` binds them as arrays. */
const MANY_EVENTS = 50;

/** `outboxInsert` with the events bound as arrays (`unnestRows`), inserted in the order given (the outbox's id order). */
export function outboxInsertMany(events: readonly DomainEvent[], params: unknown[]): string {
  const actorJson = rememberLast((actor: object) => JSON.stringify(actor));
  const rows = unnestRows(
    [
      { type: 'uuid', values: events.map((event) => event.workspaceId) },
      { type: 'text', values: events.map((event) => event.eventType) },
      { type: 'jsonb', values: events.map((event) => JSON.stringify(event.id)) },
      { type: 'jsonb', values: events.map((event) => actorJson(event.actor)) },
      { type: 'jsonb', values: events.map((event) => JSON.stringify(event.payload ?? {})) },
    ],
    params,
  );
  return `INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor, payload) ${rows}`;
}

/**
 * The notification of new events, delivered at commit (once per transaction, however many records)
 * so that it wakes the webhook fan-out at once instead of at its next poll (libs/webhooks/README.md).
 */
export const OUTBOX_NOTIFY = `pg_notify('${OUTBOX_CHANNEL}', '')`;
