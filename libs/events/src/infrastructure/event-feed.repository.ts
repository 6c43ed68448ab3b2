import { Injectable } from '@nestjs/common';
import type { EventType } from '@workbase/shared/kernel';
import { COMMIT_HORIZON, TransactionRunner } from '@workbase/shared/persistence';
import type { FeedPosition } from '../domain/feed-position';

/** An event as the feed reads it from the outbox. */
export interface FeedEvent {
  readonly id: string;
  readonly tx_id: string;
  readonly event_type: string;
  readonly entity_id: Record<string, unknown>;
  readonly actor: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
  readonly occurred_at: Date;
}

/** What the retention sweep has deleted of a workspace's events: the last one (a prefix in feed order) and the latest `occurred_at` among them. */
export interface PrunedThrough {
  readonly position: FeedPosition;
  readonly until: Date;
}

/**
 * The workspace's events after a position (`$1` the workspace, `$2`/`$3` the position) and behind
 * the commit-safe horizon (the webhook fan-out's rule, libs/webhooks/README.md): only events of
 * transactions older than the oldest one still running on the cluster. Every such transaction has
 * ended, so no event can later appear before a position a reader has passed.
 *
 * Written as two bounds of one range of `(workspace_id, tx_id, id)`, with no separate
 * `workspace_id = $1`: with that equality PostgreSQL may take the cluster-wide commit-order index
 * `(tx_id, id)` (it gives the same order) and filter out every other workspace's events, 21,000
 * rows read for a page of 1,000 in the bench; as a range, only this index gives the order.
 */
const AFTER_IN_WORKSPACE = `(e.workspace_id, e.tx_id, e.id) > ($1::uuid, $2::xid8, $3::bigint)
  AND (e.workspace_id, e.tx_id, e.id) < ($1::uuid, ${COMMIT_HORIZON}, 0)`;
const FEED_ORDER = 'e.workspace_id, e.tx_id, e.id';

/** The feed's reads of the outbox, and the retention sweep (the outbox's only deleter). */
@Injectable()
export class EventFeedRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /**
   * Up to `limit` of the workspace's events after `after`, in feed order, behind the horizon;
   * only of `types` unless null (every type). A range scan of `event_outbox_workspace_commit_order`.
   */
  async eventsAfter(workspaceId: string, after: FeedPosition, types: readonly EventType[] | null, limit: number): Promise<FeedEvent[]> {
    const params: unknown[] = [workspaceId, after.lastTxId, after.lastEventId, limit];
    const ofTypes = types === null ? '' : `AND e.event_type = ANY($${params.push(types)}::text[])`;
    // Ordered by the columns (`e.`), not by the text output columns of the same names.
    return this.transactions.query<FeedEvent>(
      `SELECT e.id::text, e.tx_id::text, e.event_type, e.entity_id, e.actor, e.payload, e.occurred_at
       FROM event_outbox e
       WHERE ${AFTER_IN_WORKSPACE} ${ofTypes}
       ORDER BY ${FEED_ORDER} LIMIT $4`,
      params,
    );
  }

  /**
   * Just before the workspace's first event after `after` (feed order, behind the horizon) that
   * occurred at or after `since`; null when there is none yet. A walk of the workspace's events up
   * to that one (no index on `occurred_at`: every write would pay for it, and a reader looks for
   * `since` only until it has found it).
   */
  async positionBeforeFirstSince(workspaceId: string, after: FeedPosition, since: Date): Promise<FeedPosition | null> {
    const [first] = await this.transactions.query<{ tx_id: string; id: string }>(
      `SELECT e.tx_id::text, (e.id - 1)::text AS id FROM event_outbox e
       WHERE ${AFTER_IN_WORKSPACE} AND e.occurred_at >= $4
       ORDER BY ${FEED_ORDER} LIMIT 1`,
      [workspaceId, after.lastTxId, after.lastEventId, since],
    );
    return first ? { lastTxId: first.tx_id, lastEventId: first.id } : null;
  }

  /** The database's clock, which `occurred_at` is read from (at the start of the statement). */
  async now(): Promise<Date> {
    const [row] = await this.transactions.query<{ now: Date }>('SELECT statement_timestamp() AS now');
    return row.now;
  }

  /** The workspace's last event after `after` and behind the horizon (any type); null when there is none. */
  async lastPositionAfter(workspaceId: string, after: FeedPosition): Promise<FeedPosition | null> {
    const [last] = await this.transactions.query<{ tx_id: string; id: string }>(
      `SELECT e.tx_id::text, e.id::text FROM event_outbox e
       WHERE ${AFTER_IN_WORKSPACE}
       ORDER BY e.workspace_id DESC, e.tx_id DESC, e.id DESC LIMIT 1`,
      [workspaceId, after.lastTxId, after.lastEventId],
    );
    return last ? { lastTxId: last.tx_id, lastEventId: last.id } : null;
  }

  /** What retention has deleted of the workspace's events; null when nothing yet. */
  async prunedThrough(workspaceId: string): Promise<PrunedThrough | null> {
    const [row] = await this.transactions.query<{ pruned_tx_id: string; pruned_event_id: string; pruned_until: Date }>(
      `SELECT pruned_tx_id::text, pruned_event_id::text, pruned_until FROM event_feed_retention WHERE workspace_id = $1`,
      [workspaceId],
    );
    return row ? { position: { lastTxId: row.pruned_tx_id, lastEventId: row.pruned_event_id }, until: row.pruned_until } : null;
  }

  /**
   * Deletes the oldest events, at most `batchSize`, in feed order: a prefix of the outbox of
   * events that occurred before `olderThan` and that the webhook fan-out's cursor has passed
   * (`webhook_dispatch_cursor`, consumer `webhooks`: fan-out still has to read anything after it,
   * so nothing after it is ever deleted, however old). The prefix stops at the first younger
   * event, so each workspace loses a prefix of its feed, which `event_feed_retention` records (the
   * last deleted position, moved forward only, and the latest `occurred_at` deleted). One
   * statement, so the deletion and its record commit together. Returns how many were deleted.
   */
  async deleteRetiredEvents(olderThan: Date, batchSize: number): Promise<number> {
    const [row] = await this.transactions.query<{ deleted: number }>(
      `WITH fanned_out AS (
         SELECT last_tx_id, last_event_id FROM webhook_dispatch_cursor WHERE consumer = 'webhooks'
       ), oldest AS (
         SELECT e.workspace_id, e.id, e.tx_id, e.occurred_at FROM event_outbox e, fanned_out c
         WHERE (e.tx_id, e.id) <= (c.last_tx_id, c.last_event_id)
         ORDER BY e.tx_id, e.id LIMIT $2
       ), flagged AS (
         SELECT o.*, bool_or(o.occurred_at >= $1) OVER (ORDER BY o.tx_id, o.id) AS kept FROM oldest o
       ), deleted AS (
         DELETE FROM event_outbox e USING flagged f
         WHERE NOT f.kept AND e.workspace_id = f.workspace_id AND e.tx_id = f.tx_id AND e.id = f.id
         RETURNING e.workspace_id, e.tx_id, e.id, e.occurred_at
       ), per_workspace AS (
         SELECT DISTINCT ON (workspace_id) workspace_id, tx_id, id, max(occurred_at) OVER (PARTITION BY workspace_id) AS until
         FROM deleted ORDER BY workspace_id, tx_id DESC, id DESC
       ), recorded AS (
         INSERT INTO event_feed_retention AS r (workspace_id, pruned_tx_id, pruned_event_id, pruned_until)
         SELECT workspace_id, tx_id, id, until FROM per_workspace
         ON CONFLICT (workspace_id) DO UPDATE
           SET pruned_tx_id = EXCLUDED.pruned_tx_id, pruned_event_id = EXCLUDED.pruned_event_id,
               pruned_until = GREATEST(r.pruned_until, EXCLUDED.pruned_until), updated_at = clock_timestamp()
           -- Two sweeps at once (every worker runs one): the later commit never moves it back.
           WHERE (r.pruned_tx_id, r.pruned_event_id) < (EXCLUDED.pruned_tx_id, EXCLUDED.pruned_event_id)
       )
       SELECT count(*)::int AS deleted FROM deleted`,
      [olderThan, batchSize],
    );
    return row.deleted;
  }
}
