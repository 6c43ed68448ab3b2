/**
 * Spellings of refused addresses, shared by the policy's unit spec, the creation e2e (as URLs)
 * and the delivery-time spec (as DNS answers). `answer` is what a resolver could answer for the
 * host; `kind` says whether allowing private targets lets it through (`private`) or not (`metadata`).
 */
export interface AddressSpelling {
  readonly url: string;
  readonly answer: string;
  readonly kind: 'private' | 'metadata';
  /** What the refusal names. */
  readonly label: RegExp;
}

const spelling = (url: string, answer: string, kind: 'private' | 'metadata', label: RegExp): AddressSpelling => ({ url, answer, kind, label });

export const REFUSED_SPELLINGS: readonly AddressSpelling[] = [
  // IPv4 loopback in every URL spelling WHATWG accepts (it normalises them all to 127.0.0.1).
  spelling('http://127.0.0.1/hook', '127.0.0.1', 'private', /loopback/),
  spelling('http://2130706433/hook', '127.0.0.1', 'private', /loopback/),
  spelling('http://0x7f000001/hook', '127.0.0.1', 'private', /loopback/),
  spelling('http://0177.0.0.1/hook', '127.0.0.1', 'private', /loopback/),
  spelling('http://0x7f.1/hook', '127.0.0.1', 'private', /loopback/),
  spelling('http://127.1/hook', '127.0.0.1', 'private', /loopback/),
  spelling('http://127.0.0.1./hook', '127.0.0.1', 'private', /loopback/),
  spelling('http://127.255.255.254/hook', '127.255.255.254', 'private', /loopback/),
  // IPv6 loopback and IPv6 forms embedding IPv4 loopback.
  spelling('http://[::1]/hook', '::1', 'private', /loopback/),
  spelling('http://[0:0:0:0:0:0:0:1]/hook', '0:0:0:0:0:0:0:1', 'private', /loopback/),
  spelling('http://[::ffff:127.0.0.1]/hook', '::ffff:127.0.0.1', 'private', /loopback \(IPv4-mapped 127\.0\.0\.1\)/),
  spelling('http://[::ffff:7f00:1]/hook', '::ffff:7f00:1', 'private', /loopback \(IPv4-mapped/),
  // As a URL host this is ::7f00:1 (IPv4-compatible); ipaddr.js reads the text '::127.0.0.1' as
  // IPv4-mapped. Either way it is the loopback address it carries.
  spelling('http://[::127.0.0.1]/hook', '::127.0.0.1', 'private', /loopback \(IPv4-(compatible|mapped)/),
  spelling('http://[::ffff:0:7f00:1]/hook', '::ffff:0:7f00:1', 'private', /loopback \(IPv4-translated/),
  spelling('http://[2002:7f00:1::1]/hook', '2002:7f00:1::1', 'private', /loopback \(6to4 127\.0\.0\.1\)/),
  spelling('http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'private', /loopback \(Teredo client 127\.0\.0\.1\)/),
  spelling('http://[64:ff9b::7f00:1]/hook', '64:ff9b::7f00:1', 'private', /loopback \(NAT64/),
  // Private, this-network, CGNAT and other special IPv4 ranges.
  spelling('http://10.1.2.3/hook', '10.1.2.3', 'private', /private/),
  spelling('http://012.1.2.3/hook', '10.1.2.3', 'private', /private/),
  spelling('http://167772161/hook', '10.0.0.1', 'private', /private/),
  spelling('http://172.16.0.1/hook', '172.16.0.1', 'private', /private/),
  spelling('http://192.168.1.1/hook', '192.168.1.1', 'private', /private/),
  spelling('http://[::ffff:c0a8:101]/hook', '::ffff:c0a8:101', 'private', /private \(IPv4-mapped 192\.168\.1\.1\)/),
  spelling('http://[2002:a00:1::]/hook', '2002:a00:1::', 'private', /private \(6to4 10\.0\.0\.1\)/),
  spelling('http://0/hook', '0.0.0.0', 'private', /this-network/),
  spelling('http://100.64.0.1/hook', '100.64.0.1', 'private', /carrier-grade NAT/),
  spelling('http://169.254.1.1/hook', '169.254.1.1', 'private', /link-local/),
  spelling('http://198.18.0.1/hook', '198.18.0.1', 'private', /benchmarking/),
  spelling('http://192.0.2.1/hook', '192.0.2.1', 'private', /documentation/),
  spelling('http://224.0.0.1/hook', '224.0.0.1', 'private', /multicast/),
  spelling('http://255.255.255.255/hook', '255.255.255.255', 'private', /reserved/),
  // Special IPv6 ranges.
  spelling('http://[::]/hook', '::', 'private', /unspecified/),
  spelling('http://[fd00::1]/hook', 'fd00::1', 'private', /unique-local/),
  spelling('http://[fe80::1]/hook', 'fe80::1', 'private', /link-local/),
  spelling('http://[fec0::1]/hook', 'fec0::1', 'private', /site-local/),
  spelling('http://[ff02::1]/hook', 'ff02::1', 'private', /multicast/),
  spelling('http://[2001:db8::1]/hook', '2001:db8::1', 'private', /documentation/),
  spelling('http://[100::1]/hook', '100::1', 'private', /discard/),
  spelling('http://[64:ff9b::808:808]/hook', '64:ff9b::808:808', 'private', /NAT64/),
  // Cloud metadata endpoints: refused even when private targets are allowed.
  spelling('http://169.254.169.254/latest/meta-data', '169.254.169.254', 'metadata', /metadata/),
  spelling('http://2852039166/hook', '169.254.169.254', 'metadata', /metadata/),
  spelling('http://0xa9.0xfe.0xa9.0xfe/hook', '169.254.169.254', 'metadata', /metadata/),
  spelling('http://0251.0376.0251.0376/hook', '169.254.169.254', 'metadata', /metadata/),
  spelling('http://169.254.43518/hook', '169.254.169.254', 'metadata', /metadata/),
  spelling('http://[::ffff:a9fe:a9fe]/hook', '::ffff:a9fe:a9fe', 'metadata', /metadata endpoint \(IPv4-mapped 169\.254\.169\.254\)/),
  spelling('http://[::ffff:169.254.169.254]/hook', '::ffff:169.254.169.254', 'metadata', /metadata/),
  spelling('http://[0:0:0:0:0:ffff:a9fe:a9fe]/hook', '0:0:0:0:0:ffff:a9fe:a9fe', 'metadata', /metadata/),
  spelling('http://[::a9fe:a9fe]/hook', '::a9fe:a9fe', 'metadata', /metadata endpoint \(IPv4-compatible/),
  spelling('http://[::ffff:0:a9fe:a9fe]/hook', '::ffff:0:a9fe:a9fe', 'metadata', /metadata endpoint \(IPv4-translated/),
  spelling('http://[2002:a9fe:a9fe::1]/hook', '2002:a9fe:a9fe::1', 'metadata', /metadata endpoint \(6to4/),
  spelling('http://[2001:0:4136:e378:8000:63bf:5601:5601]/hook', '2001:0:4136:e378:8000:63bf:5601:5601', 'metadata', /metadata endpoint \(Teredo client/),
  spelling('http://[64:ff9b::a9fe:a9fe]/hook', '64:ff9b::a9fe:a9fe', 'metadata', /metadata endpoint \(NAT64/),
  spelling('http://169.254.170.2/v2/credentials', '169.254.170.2', 'metadata', /metadata/),
  spelling('http://169.254.170.2./hook', '169.254.170.2', 'metadata', /metadata/),
  spelling('http://[::ffff:a9fe:aa02]/hook', '::ffff:a9fe:aa02', 'metadata', /metadata/),
  spelling('http://100.100.100.200/hook', '100.100.100.200', 'metadata', /metadata/),
  spelling('http://0x64.0x64.0x64.0xc8/hook', '100.100.100.200', 'metadata', /metadata/),
  spelling('http://[::ffff:6464:64c8]/hook', '::ffff:6464:64c8', 'metadata', /metadata/),
  spelling('http://[fd00:ec2::254]/hook', 'fd00:ec2::254', 'metadata', /metadata/),
  spelling('http://[fd00:ec2:0:0:0:0:0:254]/hook', 'fd00:ec2:0:0:0:0:0:254', 'metadata', /metadata/),
];

/** Public addresses (and embeddings of public IPv4 addresses) that stay allowed. */
export const ALLOWED_ADDRESSES: readonly string[] = ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:808:808', '2002:808:808::1'];
