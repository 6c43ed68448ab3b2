import { BlockList, isIP } from 'node:net';

/**
 * Which network addresses a webhook may be delivered to. Loopback, private, link-local, CGNAT,
 * multicast, reserved and documentation ranges are refused unless the operator allows private
 * targets; cloud metadata endpoints are refused always.
 */
const PRIVATE_V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const PRIVATE_V6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

const ranges = PRIVATE_V4.map(([network, prefix, label]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, 'ipv4');
  return { list, label };
}).concat(
  PRIVATE_V6.map(([network, prefix, label]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, 'ipv6');
    return { list, label };
  }),
);

/** `::ffff:10.0.0.1` and friends are the IPv4 address they embed. */
export function canonicalAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address.toLowerCase();
}

/** Why an address is not a public one, or null when it is. */
export function addressRestriction(address: string): { kind: 'metadata' | 'private'; label: string } | null {
  const canonical = canonicalAddress(address);
  const family = isIP(canonical);
  if (family === 0) return { kind: 'private', label: 'not an IP address' };
  if (METADATA.has(canonical)) return { kind: 'metadata', label: 'cloud metadata endpoint' };
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const range of ranges) {
    if (range.list.check(canonical, type)) return { kind: 'private', label: range.label };
  }
  return null;
}

export interface TargetPolicy {
  readonly allowPrivateTargets: boolean;
}

/** The reason an address may not be connected to under the policy, or null when it may. */
export function refusalFor(address: string, policy: TargetPolicy): string | null {
  const restriction = addressRestriction(address);
  if (!restriction) return null;
  if (restriction.kind === 'private' && policy.allowPrivateTargets) return null;
  return `${address} is a ${restriction.label} address`;
}

/** Syntax of a target URL: absolute http(s), no credentials, no fragment. Returns the parsed URL or a reason. */
export function parseTargetUrl(raw: string): URL | string {
  if (raw.length > 2048) return 'must be at most 2048 characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use http or https';
  if (url.username || url.password) return 'must not contain credentials';
  if (!url.hostname) return 'must name a host';
  return url;
}

/** The host of a URL without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}
