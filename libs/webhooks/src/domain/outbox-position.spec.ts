import { compareOutboxPositions } from './outbox-position';

describe('outbox positions', () => {
  it('orders by transaction, then by event, as 64-bit integers (not as text)', () => {
    const at = (lastTxId: string, lastEventId: string) => ({ lastTxId, lastEventId });
    expect(compareOutboxPositions(at('999', '5'), at('1000', '1'))).toBe(-1);
    expect(compareOutboxPositions(at('1000', '10'), at('1000', '9'))).toBe(1);
    expect(compareOutboxPositions(at('18446744073709551615', '1'), at('18446744073709551614', '1'))).toBe(1);
    expect(compareOutboxPositions(at('7', '7'), at('7', '7'))).toBe(0);
  });
});
