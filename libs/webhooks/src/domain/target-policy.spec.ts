import { addressRestriction, refusalFor } from './target-policy';

describe('target policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.251', 'multicast'],
    ['0.0.0.0', 'this-network'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fd12::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'NAT64'],
  ])('classifies %s as %s', (address, label) => {
    expect(addressRestriction(address)).toEqual({ kind: 'private', label });
    expect(refusalFor(address, { allowPrivateTargets: false })).toMatch(label);
    expect(refusalFor(address, { allowPrivateTargets: true })).toBeNull();
  });

  it('always refuses cloud metadata endpoints', () => {
    for (const address of ['169.254.169.254', '100.100.100.200', 'fd00:ec2::254', '::ffff:169.254.169.254']) {
      expect(refusalFor(address, { allowPrivateTargets: true })).toMatch(/metadata/);
    }
  });

  it('allows public addresses', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1']) {
      expect(refusalFor(address, { allowPrivateTargets: false })).toBeNull();
    }
  });
});
