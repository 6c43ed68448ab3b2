import { rateTargetKey, rateTargetOf, retryBucketKey } from './rate-target';

describe('rate target', () => {
  it('is scheme, lower-cased host, explicit port and path', () => {
    expect(rateTargetOf('https://Hooks.Example.COM/In/Bound')).toBe('https://hooks.example.com:443/In/Bound');
    expect(rateTargetOf('HTTP://example.com')).toBe('http://example.com:80/');
    expect(rateTargetOf('http://example.com:8080/a')).toBe('http://example.com:8080/a');
    expect(rateTargetOf('http://[::1]:9000/x')).toBe('http://[::1]:9000/x');
  });

  it('treats spellings of one endpoint as one target', () => {
    const same = [
      'https://example.com/hook',
      'https://EXAMPLE.com:443/hook',
      'https://example.com./hook',
      'https://example.com/a/../hook',
      'https://example.com/hook?workspace=1',
      'https://example.com/hook?workspace=2#frag',
    ];
    expect(new Set(same.map(rateTargetOf))).toEqual(new Set(['https://example.com:443/hook']));
    expect(rateTargetOf('https://example.com/p%2fq')).toBe(rateTargetOf('https://example.com/p%2Fq'));
    expect(rateTargetKey('https://EXAMPLE.com/hook?x=1').equals(rateTargetKey('https://example.com:443/hook'))).toBe(true);
  });

  it('keeps different endpoints apart', () => {
    const distinct = [
      'https://example.com/hook',
      'http://example.com/hook',
      'https://example.com:8443/hook',
      'https://example.com/hook/',
      'https://example.com/Hook',
      'https://other.example.com/hook',
    ];
    expect(new Set(distinct.map(rateTargetOf)).size).toBe(distinct.length);
    expect(new Set(distinct.map((url) => rateTargetKey(url).toString('hex'))).size).toBe(distinct.length);
  });

  it("gives a target's retries a bucket of their own: 32 bytes, one per target, never a target's own key", () => {
    const a = rateTargetKey('https://example.com/hook');
    const b = rateTargetKey('https://example.com/other');
    expect(retryBucketKey(a)).toHaveLength(32);
    expect(retryBucketKey(a).equals(retryBucketKey(rateTargetKey('https://EXAMPLE.com:443/hook')))).toBe(true);
    expect(retryBucketKey(a).equals(a)).toBe(false);
    expect(retryBucketKey(a).equals(retryBucketKey(b))).toBe(false);
  });
});
