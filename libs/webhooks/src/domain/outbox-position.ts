/**
 * A place in the outbox's commit order (`(tx_id, id)`): the last event a reader has seen, the
 * webhook fan-out's cursor or a change-feed reader's. Both parts are 64-bit integers kept as
 * decimal text.
 */
export interface OutboxPosition {
  readonly lastTxId: string;
  readonly lastEventId: string;
}

/** Orders two positions by (tx_id, id), both 64-bit: compared as bigints, not as numbers or text. */
export function compareOutboxPositions(a: OutboxPosition, b: OutboxPosition): number {
  const tx = BigInt(a.lastTxId) - BigInt(b.lastTxId);
  if (tx !== 0n) return tx < 0n ? -1 : 1;
  const id = BigInt(a.lastEventId) - BigInt(b.lastEventId);
  return id === 0n ? 0 : id < 0n ? -1 : 1;
}
