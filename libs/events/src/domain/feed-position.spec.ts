import { parseFeedPosition } from './feed-position';

describe('feed positions', () => {
  it('reads two 64-bit decimals and nothing else', () => {
    expect(parseFeedPosition({ tx: '123', id: '9' })).toEqual({ lastTxId: '123', lastEventId: '9' });
    for (const bad of [{ tx: 123, id: '9' }, { tx: '-1', id: '9' }, { tx: '1', id: '1e3' }, { tx: '18446744073709551616', id: '1' }, { tx: '1', id: '9223372036854775808' }, { tx: '1' }, {}]) {
      expect(parseFeedPosition(bad)).toBeNull();
    }
  });
});
