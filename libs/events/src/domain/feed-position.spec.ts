import { feedCursorBody, parseFeedCursor, parseFeedPosition } from './feed-position';

describe('feed positions', () => {
  it('reads two 64-bit decimals and nothing else', () => {
    expect(parseFeedPosition({ tx: '123', id: '9' })).toEqual({ lastTxId: '123', lastEventId: '9' });
    for (const bad of [{ tx: 123, id: '9' }, { tx: '-1', id: '9' }, { tx: '1', id: '1e3' }, { tx: '18446744073709551616', id: '1' }, { tx: '1', id: '9223372036854775808' }, { tx: '1' }, {}]) {
      expect(parseFeedPosition(bad)).toBeNull();
    }
  });

  it('carries a pending since through a cursor body, and refuses one that is not an ISO instant', () => {
    const pending = { after: { lastTxId: '7', lastEventId: '3' }, since: new Date('2026-11-27T10:00:00.123Z') };
    expect(parseFeedCursor(feedCursorBody(pending))).toEqual(pending);
    expect(parseFeedCursor({ tx: '7', id: '3' })).toEqual({ after: { lastTxId: '7', lastEventId: '3' }, since: null });
    for (const since of ['yesterday', 5, '2026-11-27', '2026-02-30T00:00:00.000Z', null]) {
      expect(parseFeedCursor({ tx: '7', id: '3', since })).toBeNull();
    }
    expect(parseFeedCursor({ tx: 'x', id: '3' })).toBeNull();
  });
});
