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
