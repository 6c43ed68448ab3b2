import { ALLOWED_ADDRESSES, REFUSED_SPELLINGS } from './target-policy.fixture';
import { addressRestriction, bareHost, parseAddress, refusalFor } from './target-policy';

describe('target policy', () => {
  it.each(REFUSED_SPELLINGS.map((s) => [s.answer, s.kind, s.label] as const))('refuses the address %s (%s)', (address, kind, label) => {
    expect(addressRestriction(address)).toEqual({ kind, label: expect.stringMatching(label) });
    expect(refusalFor(address, { allowPrivateTargets: false })).toMatch(label);
    if (kind === 'metadata') expect(refusalFor(address, { allowPrivateTargets: true })).toMatch(label);
    else expect(refusalFor(address, { allowPrivateTargets: true })).toBeNull();
  });

  it.each(REFUSED_SPELLINGS.map((s) => [s.url, s.label] as const))('refuses the host of %s whatever its spelling', (url, label) => {
    expect(refusalFor(bareHost(new URL(url)), { allowPrivateTargets: false })).toMatch(label);
  });

  it.each(ALLOWED_ADDRESSES)('allows the public address %s', (address) => {
    expect(refusalFor(address, { allowPrivateTargets: false })).toBeNull();
  });

  it('parses IPv4 spellings the way URLs do, and names nothing that is not an address', () => {
    expect(parseAddress('0x7f.1')?.toString()).toBe('127.0.0.1');
    expect(parseAddress('[::1]')?.toString()).toBe('::1');
    expect(parseAddress('example.com')).toBeNull();
    expect(addressRestriction('example.com')).toEqual({ kind: 'private', label: 'not an IP address' });
    expect(bareHost(new URL('http://LocalHost./x'))).toBe('localhost');
  });
});
