import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Where a webhook may post (docs/decisions/0018-change-feed-and-webhooks.md): public hosts only,
// never an address of ours or of a network we sit in. One check, used when a webhook is made or
// changed (a clear 400) and when a delivery is sent (on every address the name resolves to, and
// the request then goes to exactly those addresses: core/webhooks/post-webhook.ts).
//
// The ranges are the IANA special-purpose registries' "not globally reachable" ones. An IPv6
// address that carries an IPv4 one — mapped (::ffff:a.b.c.d), compatible (::a.b.c.d, so ::7f00:1),
// NAT64 (64:ff9b::/96) and 6to4 (2002::/16) — is judged by the IPv4 address it leads to as well:
// 64:ff9b::7f00:1 reaches 127.0.0.1 through a NAT64 gateway, while 64:ff9b::<public> is how an
// IPv6-only network reaches a public host.

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to every address it has (the system resolver, or a stand-in in tests). */
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, order: 'verbatim' })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Each kind of address a webhook may not reach, with its ranges (first match names it). */
const IPV4_RANGES: [kind: string, ranges: [string, number][]][] = [
  ['loopback', [['127.0.0.0', 8]]],
  [
    'private',
    [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
    ],
  ],
  ['carrier-grade NAT', [['100.64.0.0', 10]]],
  ['link-local', [['169.254.0.0', 16]]],
  ['unspecified ("this network")', [['0.0.0.0', 8]]],
  ['benchmarking', [['198.18.0.0', 15]]],
  [
    'documentation',
    [
      ['192.0.2.0', 24],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
    ],
  ],
  ['protocol-assignment', [['192.0.0.0', 24]]],
  ['6to4 relay', [['192.88.99.0', 24]]],
  ['multicast', [['224.0.0.0', 4]]],
  ['broadcast', [['255.255.255.255', 32]]],
  ['reserved', [['240.0.0.0', 4]]],
];
const IPV6_RANGES: [kind: string, ranges: [string, number][]][] = [
  ['loopback', [['::1', 128]]],
  ['unspecified', [['::', 128]]],
  ['unique local', [['fc00::', 7]]],
  ['link-local', [['fe80::', 10]]],
  ['site-local', [['fec0::', 10]]],
  ['multicast', [['ff00::', 8]]],
  ['local-use NAT64', [['64:ff9b:1::', 48]]],
  ['discard-only', [['100::', 64]]],
  ['Teredo', [['2001::', 32]]],
  ['benchmarking', [['2001:2::', 48]]],
  [
    'documentation',
    [
      ['2001:db8::', 32],
      ['3fff::', 20],
    ],
  ],
];

function blockLists(ranges: [string, [string, number][]][], type: 'ipv4' | 'ipv6'): [string, BlockList][] {
  return ranges.map(([kind, subnets]) => {
    const list = new BlockList();
    for (const [net, prefix] of subnets) list.addSubnet(net, prefix, type);
    return [kind, list];
  });
}
const IPV4 = blockLists(IPV4_RANGES, 'ipv4');
const IPV6 = blockLists(IPV6_RANGES, 'ipv6');

/**
 * Why a webhook may not post to this address ("127.0.0.1: loopback", "::7f00:1 → 127.0.0.1:
 * loopback"), or null for a public one. Text that is not an IP address is refused too.
 */
export function blockedAddressReason(address: string): string | null {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) {
    const kind = IPV4.find(([, list]) => list.check(ip, 'ipv4'))?.[0];
    return kind ? `${ip}: ${kind}` : null;
  }
  if (family !== 6) return `${address}: not an IP address`;
  const kind = IPV6.find(([, list]) => list.check(ip, 'ipv6'))?.[0];
  if (kind) return `${ip}: ${kind}`;
  const embedded = embeddedIpv4(ip);
  if (embedded) {
    const inner = blockedAddressReason(embedded);
    if (inner) return `${ip} → ${inner}`;
  }
  return null;
}

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64 or 6to4), if any. */
export function embeddedIpv4(ipv6: string): string | null {
  const b = ipv6Bytes(ipv6);
  if (!b) return null;
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12); // ::ffff:a.b.c.d (mapped)
  if (zero(0, 12)) return v4(12); // ::a.b.c.d (compatible, deprecated)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return v4(12); // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2); // 6to4: 2002:AABB:CCDD::/48
  return null;
}

/** The 16 bytes of an IPv6 address (any spelling: ::, a trailing dotted IPv4), or null. */
function ipv6Bytes(text: string): number[] | null {
  if (isIP(text) !== 6) return null;
  let groups = text;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    groups = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = groups.includes('::') ? groups.split('::') : [groups, null];
  const words = (part: string) => (part ? part.split(':').map((w) => Number.parseInt(w, 16)) : []);
  const front = words(head);
  const back = tail === null ? [] : words(tail);
  const all = tail === null ? front : [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
  if (all.length !== 8) return null;
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

/** A host a webhook may not reach: the message names the host, the address and why. */
export class PrivateHostError extends Error {
  constructor(hostname: string, reason: string) {
    super(`${hostname} is not a public host (${reason}): webhooks go to public hosts only, never a private address.`);
    this.name = 'PrivateHostError';
  }
}

/** Every address of a host: the host itself when it is an address, else what the lookup answers. */
export async function resolveHost(hostname: string, lookup: Lookup = systemLookup): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family: family === 6 ? 6 : 4 }];
  const addresses = await lookup(host);
  if (addresses.length === 0) throw new Error(`${hostname} has no address.`);
  return addresses;
}

/** Throws PrivateHostError when any of a host's addresses is one a webhook may not reach. */
export function requirePublicAddresses(hostname: string, addresses: ResolvedAddress[]): void {
  for (const { address } of addresses) {
    const reason = blockedAddressReason(address);
    if (reason) throw new PrivateHostError(hostname, reason);
  }
}

/** Resolves a host once and refuses it unless every address is public; the addresses to connect to. */
export async function resolvePublicHost(hostname: string, lookup: Lookup = systemLookup): Promise<ResolvedAddress[]> {
  const addresses = await resolveHost(hostname, lookup);
  requirePublicAddresses(hostname, addresses);
  return addresses;
}
