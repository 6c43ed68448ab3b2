import type { OutboxPosition } from '@workbase/webhooks';

/**
 * A place in one workspace's change feed: the last event a reader has seen, as `(tx_id, id)`, the
 * order in which the outbox is read behind the commit horizon (libs/events/README.md); the
 * outbox's position, ordered by webhooks' `compareOutboxPositions`.
 */
export type FeedPosition = OutboxPosition;

/** Before every event: where a reader without a cursor or `since` starts. */
export const FEED_START: FeedPosition = { lastTxId: '0', lastEventId: '0' };

const DECIMAL = /^\d{1,20}$/;

/** A position read back from a cursor: two unsigned decimal integers within 64 bits, else null. */
export function parseFeedPosition(value: { readonly [key: string]: unknown }): FeedPosition | null {
  const { tx, id } = value;
  if (typeof tx !== 'string' || typeof id !== 'string' || !DECIMAL.test(tx) || !DECIMAL.test(id)) return null;
  if (BigInt(tx) >= 2n ** 64n || BigInt(id) >= 2n ** 63n) return null;
  return { lastTxId: tx, lastEventId: id };
}

/**
 * Where a reader goes on from: after a position, and, while `since` is set, from the first event
 * at or after that instant. A reader that starts at `since` before any such event is behind the
 * horizon keeps it in its cursor: the events that will come out from behind the horizon may still
 * be older than it, and are skipped as they come, until the first one that is not.
 */
export interface FeedCursor {
  readonly after: FeedPosition;
  readonly since: Date | null;
}

/** A cursor's body: the position, and the pending `since` (ISO 8601) while there is one. */
export function feedCursorBody(cursor: FeedCursor): Record<string, string> {
  const body: Record<string, string> = { tx: cursor.after.lastTxId, id: cursor.after.lastEventId };
  if (cursor.since) body.since = cursor.since.toISOString();
  return body;
}

/** A cursor read back from its body, else null (malformed). */
export function parseFeedCursor(value: { readonly [key: string]: unknown }): FeedCursor | null {
  const after = parseFeedPosition(value);
  if (!after) return null;
  if (value.since === undefined) return { after, since: null };
  if (typeof value.since !== 'string') return null;
  const since = new Date(value.since);
  return Number.isNaN(since.getTime()) || since.toISOString() !== value.since ? null : { after, since };
}
