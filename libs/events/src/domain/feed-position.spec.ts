import { compareFeedPositions, parseFeedPosition } from './feed-position';

describe('feed positions', () => {
  it('reads two 64-bit decimals and nothing else', () => {
    expect(parseFeedPosition({ tx: '123', id: '9' })).toEqual({ txId: '123', eventId: '9' });
    for (const bad of [{ tx: 123, id: '9' }, { tx: '-1', id: '9' }, { tx: '1', id: '1e3' }, { tx: '18446744073709551616', id: '1' }, { tx: '1', id: '9223372036854775808' }, { tx: '1' }, {}]) {
      expect(parseFeedPosition(bad)).toBeNull();
    }
  });

  it('orders by transaction, then by event, as 64-bit integers (not as text)', () => {
    expect(compareFeedPositions({ txId: '999', eventId: '5' }, { txId: '1000', eventId: '1' })).toBe(-1);
    expect(compareFeedPositions({ txId: '1000', eventId: '10' }, { txId: '1000', eventId: '9' })).toBe(1);
    expect(compareFeedPositions({ txId: '18446744073709551615', eventId: '1' }, { txId: '18446744073709551614', eventId: '1' })).toBe(1);
    expect(compareFeedPositions({ txId: '7', eventId: '7' }, { txId: '7', eventId: '7' })).toBe(0);
  });
});
