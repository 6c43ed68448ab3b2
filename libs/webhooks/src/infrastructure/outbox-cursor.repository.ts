import { Injectable } from '@nestjs/common';
import type { EventType } from '@workbase/shared/kernel';
import { COMMIT_HORIZON, TransactionRunner } from '@workbase/shared/persistence';
import { compareOutboxPositions, type OutboxPosition } from '../domain/outbox-position';

/** An event of the outbox as fan-out reads it; its type is one of the kernel's catalogue (the outbox is written only through `DomainEvent<T>`). */
export interface OutboxEvent {
  workspace_id: string;
  id: string;
  tx_id: string;
  event_type: EventType;
  entity_id: Record<string, string>;
  actor: Record<string, unknown>;
  payload: Record<string, unknown>;
  occurred_at: Date;
}

const CONSUMER = 'webhooks';
/**
 * A second row of the cursor table: how far fan-out's look-ahead has read. Deliveries exist ahead
 * of the cursor only up to there, so only there must the cursor look for them.
 */
const AHEAD_CONSUMER = 'webhooks:ahead';

/**
 * The outbox's events after a position (`$1`/`$2`) and behind the commit-safe horizon: only rows
 * written by transactions older than the oldest one still running, so no event can later appear
 * behind a position fan-out has passed.
 */
const AFTER_CURSOR = `(e.tx_id, e.id) > ($1::xid8, $2::bigint) AND e.tx_id < ${COMMIT_HORIZON}`;

const positionOf = (row: { tx_id: string; id: string }): OutboxPosition => ({ lastTxId: row.tx_id, lastEventId: row.id });

/**
 * Fan-out's place in the outbox (`webhook_dispatch_cursor`): the cursor, which moves in commit
 * order, and the look-ahead's position; and the outbox reads that go with them, all in commit-safe
 * order. Every method runs in the caller's transaction (the one that holds the cursor's lock).
 */
@Injectable()
export class OutboxCursorRepository {
  constructor(private readonly transactions: TransactionRunner) {}

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
       WHERE ${AFTER_CURSOR}
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
       WHERE ${AFTER_CURSOR}
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
         SELECT e.workspace_id, e.id, e.tx_id, e.event_type FROM event_outbox e
         WHERE ${AFTER_CURSOR}
         ORDER BY e.tx_id, e.id LIMIT $3
       ), subscribed AS (
         SELECT DISTINCT w.workspace_id, s->>'event_type' AS event_type
         FROM webhooks w CROSS JOIN LATERAL jsonb_array_elements(w.subscriptions) s
         WHERE w.workspace_id IN (SELECT DISTINCT workspace_id FROM scanned) AND w.status <> 'inactive'
       ), ranked AS (
         SELECT sc.workspace_id, sc.id, sc.tx_id, row_number() OVER (PARTITION BY sc.workspace_id ORDER BY sc.tx_id, sc.id) AS k,
           count(*) OVER (PARTITION BY sc.workspace_id) AS n
         FROM scanned sc JOIN subscribed USING (workspace_id, event_type)
       ), chosen AS (
         SELECT workspace_id, tx_id, id FROM ranked WHERE k <= $4 AND n <= $6 ORDER BY tx_id, id LIMIT $5
       )
       SELECT e.workspace_id, e.id::text, e.tx_id::text, e.event_type, e.entity_id, e.actor, e.payload, e.occurred_at, false AS scanned_to
       FROM chosen JOIN event_outbox e USING (workspace_id, tx_id, id)
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

  async advanceCursor(lastTxId: string, lastEventId: string): Promise<void> {
    await this.transactions.query(`UPDATE webhook_dispatch_cursor SET last_tx_id = $2::xid8, last_event_id = $3, updated_at = clock_timestamp() WHERE consumer = $1`, [
      CONSUMER,
      lastTxId,
      lastEventId,
    ]);
  }
}
