import * as ipaddr from 'ipaddr.js';

/**
 * Which network addresses an outgoing request (a webhook delivery, a fetched recording URL) may
 * go to. Parsing and range matching are ipaddr.js's; the tables below are ours, so that every
 * refusal carries a label a user can act on.
 *
 * - Refused unless the operator allows private targets: loopback, private, link-local, CGNAT,
 *   multicast, reserved, benchmarking, documentation and IETF ranges, IPv6 unspecified, ULA,
 *   link-local, site-local, discard, NAT64 and the other special IPv6 ranges.
 * - Refused always: cloud metadata endpoints, however they are spelled.
 * - An IPv6 address that embeds an IPv4 address (IPv4-mapped `::ffff:0:0/96`, IPv4-compatible
 *   `::/96`, SIIT `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`,
 *   Teredo `2001::/32`) is judged by the IPv4 address it embeds as well as by its own range.
 */
const V4_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['0.0.0.0/8', 'this-network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.31.196.0/24', 'AS112'],
  ['192.52.193.0/24', 'AMT'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['192.175.48.0/24', 'AS112'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

/** IPv6 ranges refused for themselves (checked after the embedded IPv4 address, if any). */
const V6_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b::/96', 'NAT64'],
  ['64:ff9b:1::/48', 'NAT64'],
  ['100::/64', 'discard'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:db8::/32', 'documentation'],
  ['2001:10::/28', 'ORCHID'],
  ['2001:20::/28', 'ORCHIDv2'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];

const METADATA = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'].map((address) => ipaddr.parse(address).toNormalizedString());

type Range<A> = { readonly cidr: [A, number]; readonly label: string };
const v4Ranges: Range<ipaddr.IPv4>[] = V4_RANGES.map(([cidr, label]) => ({ cidr: ipaddr.IPv4.parseCIDR(cidr), label }));
const v6Ranges: Range<ipaddr.IPv6>[] = V6_RANGES.map(([cidr, label]) => ({ cidr: ipaddr.IPv6.parseCIDR(cidr), label }));

export interface AddressRestriction {
  readonly kind: 'metadata' | 'private';
  readonly label: string;
}

export interface TargetPolicy {
  readonly allowPrivateTargets: boolean;
}

/** An IPv4 address from two 16-bit words. */
function v4FromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The IPv4 addresses an IPv6 address carries, with the name of the mechanism that carries them. */
export function embeddedIPv4(address: ipaddr.IPv6): Array<{ address: ipaddr.IPv4; via: string }> {
  const w = address.parts;
  const zeros = (from: number, to: number) => w.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return [{ address: v4FromWords(w[6], w[7]), via: 'IPv4-mapped' }];
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return [{ address: v4FromWords(w[6], w[7]), via: 'IPv4-translated' }];
  // ::/96 is IPv4-compatible, except :: and ::1, which are IPv6's own (and judged as such).
  if (zeros(0, 6) && (w[6] !== 0 || w[7] > 1)) return [{ address: v4FromWords(w[6], w[7]), via: 'IPv4-compatible' }];
  if (w[0] === 0x64 && w[1] === 0xff9b && (zeros(2, 6) || w[2] === 1)) return [{ address: v4FromWords(w[6], w[7]), via: 'NAT64' }];
  if (w[0] === 0x2002) return [{ address: v4FromWords(w[1], w[2]), via: '6to4' }];
  if (w[0] === 0x2001 && w[1] === 0) {
    // Teredo: the server's address in clear, the client's with every bit flipped.
    return [
      { address: v4FromWords(w[2], w[3]), via: 'Teredo server' },
      { address: v4FromWords(w[6] ^ 0xffff, w[7] ^ 0xffff), via: 'Teredo client' },
    ];
  }
  return [];
}

function v4Restriction(address: ipaddr.IPv4): AddressRestriction | null {
  if (METADATA.includes(address.toNormalizedString())) return { kind: 'metadata', label: 'cloud metadata endpoint' };
  const range = v4Ranges.find((r) => address.match(r.cidr));
  if (range) return { kind: 'private', label: range.label };
  if (address.range() !== 'unicast') return { kind: 'private', label: address.range() };
  return null;
}

function v6Restriction(address: ipaddr.IPv6): AddressRestriction | null {
  if (METADATA.includes(address.toNormalizedString())) return { kind: 'metadata', label: 'cloud metadata endpoint' };
  let embeddedPrivate: AddressRestriction | null = null;
  for (const embedded of embeddedIPv4(address)) {
    const restriction = v4Restriction(embedded.address);
    if (restriction?.kind === 'metadata') return { kind: 'metadata', label: `cloud metadata endpoint (${embedded.via} ${embedded.address.toString()})` };
    if (restriction && !embeddedPrivate) embeddedPrivate = { kind: 'private', label: `${restriction.label} (${embedded.via} ${embedded.address.toString()})` };
  }
  if (embeddedPrivate) return embeddedPrivate;
  const range = v6Ranges.find((r) => address.match(r.cidr));
  return range ? { kind: 'private', label: range.label } : null;
}

/**
 * Parses an address literal in any spelling ipaddr.js accepts (dotted, decimal, octal, hex and
 * short IPv4; IPv6 with or without brackets or an embedded dotted IPv4), or returns null.
 */
export function parseAddress(literal: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = literal.startsWith('[') && literal.endsWith(']') ? literal.slice(1, -1) : literal;
  if (!ipaddr.isValid(bare)) return null;
  try {
    return ipaddr.parse(bare);
  } catch {
    return null;
  }
}

/** Why an address is not a public one, or null when it is. */
export function addressRestriction(address: string): AddressRestriction | null {
  const parsed = parseAddress(address);
  if (!parsed) return { kind: 'private', label: 'not an IP address' };
  return parsed.kind() === 'ipv4' ? v4Restriction(parsed as ipaddr.IPv4) : v6Restriction(parsed as ipaddr.IPv6);
}

/** The reason an address may not be connected to under the policy, or null when it may. */
export function refusalFor(address: string, policy: TargetPolicy): string | null {
  const restriction = addressRestriction(address);
  if (!restriction) return null;
  if (restriction.kind === 'private' && policy.allowPrivateTargets) return null;
  return `${address} is a ${restriction.label} address`;
}

/** Syntax of a target URL: absolute http(s), no credentials. Returns the parsed URL or a reason. */
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

/**
 * The host of a URL as it will be looked up: without IPv6 brackets and without one trailing dot
 * (`localhost.` is `localhost`; WHATWG parsing already turns `2130706433`, `0x7f.1` or `127.1`
 * into `127.0.0.1` and drops the dot after an IPv4 address, but keeps it after a name).
 */
export function bareHost(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return host.endsWith('.') ? host.slice(0, -1) : host;
}
