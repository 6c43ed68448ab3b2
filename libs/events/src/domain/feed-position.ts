/**
 * A place in one workspace's change feed: the last event a reader has seen, as `(tx_id, id)`, the
 * order in which the outbox is read behind the commit horizon (libs/events/README.md). Both parts
 * are 64-bit integers kept as decimal text, compared as bigints.
 */
export interface FeedPosition {
  readonly txId: string;
  readonly eventId: string;
}

/** Before every event: where a reader without a cursor or `since` starts. */
export const FEED_START: FeedPosition = { txId: '0', eventId: '0' };

const DECIMAL = /^\d{1,20}$/;

/** A position read back from a cursor: two unsigned decimal integers within 64 bits, else null. */
export function parseFeedPosition(value: { readonly [key: string]: unknown }): FeedPosition | null {
  const { tx, id } = value;
  if (typeof tx !== 'string' || typeof id !== 'string' || !DECIMAL.test(tx) || !DECIMAL.test(id)) return null;
  if (BigInt(tx) >= 2n ** 64n || BigInt(id) >= 2n ** 63n) return null;
  return { txId: tx, eventId: id };
}

/** Orders two positions by (tx_id, id). */
export function compareFeedPositions(a: FeedPosition, b: FeedPosition): number {
  const tx = BigInt(a.txId) - BigInt(b.txId);
  if (tx !== 0n) return tx < 0n ? -1 : 1;
  const id = BigInt(a.eventId) - BigInt(b.eventId);
  return id === 0n ? 0 : id < 0n ? -1 : 1;
}
