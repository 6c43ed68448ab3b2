import { Injectable } from '@nestjs/common';
import type { DomainEvent } from '@workbase/shared/kernel';
import { TransactionRunner } from './transaction-runner';

/** Notified (at commit) by every transaction that recorded events: new events are committed. */
export const OUTBOX_CHANNEL = 'workbase_outbox';

/**
 * The transactional outbox: a use case records its events in the same transaction as the change
 * they describe, so an event exists if and only if the change committed. Delivery reads the table.
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
    const rows = events.map((event, i) => {
      params.push(event.workspaceId, event.eventType, JSON.stringify(event.id), JSON.stringify(event.actor), JSON.stringify(event.payload ?? {}));
      const o = i * 5;
      return `($${o + 1}, $${o + 2}, $${o + 3}::jsonb, $${o + 4}::jsonb, $${o + 5}::jsonb)`;
    });
    // The notification is delivered at commit (once per transaction, however many records) and
    // wakes the webhook fan-out at once instead of at its next poll (libs/webhooks/README.md).
    await this.transactions
      .manager()
      .query(
        `WITH recorded AS (INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor, payload) VALUES ${rows.join(', ')}) ` +
          `SELECT pg_notify('${OUTBOX_CHANNEL}', '')`,
        params,
      );
  }
}
