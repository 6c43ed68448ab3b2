import { CursorCodec } from './cursor';

describe('CursorCodec', () => {
  const codec = new CursorCodec('k'.repeat(40));
  const query = { workspace: 'w1', limit: 50, sort: 'start_asc', participants: ['a@x.test'] };
  const position = { start: '2026-01-01T00:00:00.000000Z', id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' };

  it('round-trips a position for the same kind and query, whatever the key order', () => {
    const cursor = codec.encode('meetings', query, position);
    expect(codec.decode('meetings', { participants: ['a@x.test'], sort: 'start_asc', limit: 50, workspace: 'w1', absent: undefined }, cursor)).toEqual(position);
  });

  it('refuses another limit, other filters, another kind and another workspace', () => {
    const cursor = codec.encode('meetings', query, position);
    expect(() => codec.decode('meetings', { ...query, limit: 51 }, cursor)).toThrow(/different query/);
    expect(() => codec.decode('meetings', { ...query, participants: ['b@x.test'] }, cursor)).toThrow(/different query/);
    expect(() => codec.decode('meetings', { ...query, workspace: 'w2' }, cursor)).toThrow(/different query/);
    expect(() => codec.decode('recordings', query, cursor)).toThrow(/another endpoint/);
  });

  it('refuses a tampered body or signature, another key and garbage', () => {
    const cursor = codec.encode('meetings', query, position);
    const [body, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), p: { start: '1970-01-01', id: 'x' } })).toString('base64url');
    expect(() => codec.decode('meetings', query, `${forged}.${signature}`)).toThrow(/malformed, has been modified/);
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    expect(() => codec.decode('meetings', query, `${body}.${flipped}`)).toThrow(/modified/);
    expect(() => new CursorCodec('z'.repeat(40)).decode('meetings', query, cursor)).toThrow(/modified/);
    for (const garbage of ['', 'abc', 'a.b', `${body}`, `${body}.${signature}.x`, '%%%.%%%']) {
      expect(() => codec.decode('meetings', query, garbage)).toThrow(/cursor/);
    }
  });

  it('refuses a short secret', () => {
    expect(() => new CursorCodec('short')).toThrow(/32/);
  });
});
