// Where a webhook may post (core/webhooks/public-hosts.ts): every spelling of an address that is
// not public is refused, IPv6 forms that carry an IPv4 address are judged by it, and a host name
// is refused when any address it resolves to is.
import { describe, expect, it } from 'vitest';
import {
  blockedAddressReason,
  type Lookup,
  PrivateHostError,
  resolvePublicHost,
} from '../../core/webhooks/public-hosts.ts';

describe('blockedAddressReason', () => {
  it('refuses every range that is not public, naming it', () => {
    const cases: [string, RegExp][] = [
      ['127.0.0.1', /loopback/],
      ['10.1.2.3', /private/],
      ['172.16.0.1', /private/],
      ['192.168.1.20', /private/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['169.254.169.254', /link-local/],
      ['0.0.0.0', /this network/],
      ['198.18.0.1', /benchmarking/],
      ['198.19.255.254', /benchmarking/],
      ['192.0.2.1', /documentation/],
      ['224.0.0.1', /multicast/],
      ['239.255.255.250', /multicast/],
      ['255.255.255.255', /broadcast/],
      ['240.0.0.1', /reserved/],
      ['::1', /loopback/],
      ['::', /unspecified/],
      ['fc00::1', /unique local/],
      ['fd12:3456::1', /unique local/],
      ['fe80::1', /link-local/],
      ['fe80::1%eth0', /link-local/],
      ['fec0::1', /site-local/],
      ['ff02::1', /multicast/],
      ['ff0e::1', /multicast/],
      ['2001:db8::1', /documentation/],
      ['[::1]', /loopback/],
    ];
    for (const [address, reason] of cases) expect(blockedAddressReason(address), address).toMatch(reason);
  });

  it('judges IPv6 addresses that carry an IPv4 one by that address: mapped, compatible, NAT64, 6to4', () => {
    const cases: [string, string][] = [
      ['::7f00:1', '127.0.0.1'], // IPv4-compatible, hexadecimal
      ['::127.0.0.1', '127.0.0.1'], // IPv4-compatible, dotted
      ['::ffff:127.0.0.1', '127.0.0.1'], // IPv4-mapped
      ['::ffff:7f00:1', '127.0.0.1'],
      ['::FFFF:7F00:0001', '127.0.0.1'],
      ['0:0:0:0:0:ffff:a00:1', '10.0.0.1'],
      ['64:ff9b::7f00:1', '127.0.0.1'], // NAT64
      ['64:ff9b::192.168.0.1', '192.168.0.1'],
      ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
      ['2002:7f00:1::1', '127.0.0.1'], // 6to4
      ['2002:c0a8:101::5', '192.168.1.1'],
      ['2002:0a00:0001:1::1', '10.0.0.1'],
    ];
    for (const [address, inner] of cases) {
      expect(blockedAddressReason(address), address).toContain(`→ ${inner}:`);
    }
  });

  it('lets public addresses through, in every form', () => {
    for (const address of [
      '93.184.215.14',
      '8.8.8.8',
      '198.20.0.1',
      '223.255.255.255',
      '2606:2800:220:1:248:1893:25c8:1946',
      '::ffff:93.184.215.14',
      '64:ff9b::5db8:d70e', // NAT64 of a public host
      '2002:5db8:d70e::1', // 6to4 of a public host
    ]) {
      expect(blockedAddressReason(address), address).toBeNull();
    }
  });

  it('refuses text that is not an address', () => {
    expect(blockedAddressReason('localhost')).toMatch(/not an IP address/);
  });
});

describe('resolvePublicHost', () => {
  const dns =
    (answers: Record<string, string[]>): Lookup =>
    async (host) =>
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('gives back every address of a public host, and an address as itself', async () => {
    const lookup = dns({ 'hooks.example': ['93.184.215.14', '2606:2800:220:1::1'] });
    expect(await resolvePublicHost('hooks.example', lookup)).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    expect(await resolvePublicHost('[2606:2800:220:1::1]', lookup)).toEqual([
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('refuses a host when any of its addresses is not public, naming the host, the address and why', async () => {
    const lookup = dns({ 'mixed.example': ['93.184.215.14', '::ffff:7f00:1'] });
    const refusal = resolvePublicHost('mixed.example', lookup);
    await expect(refusal).rejects.toBeInstanceOf(PrivateHostError);
    await expect(refusal).rejects.toThrow(/mixed\.example .*::ffff:7f00:1 → 127\.0\.0\.1: loopback/);
    await expect(resolvePublicHost('[::7f00:1]', lookup)).rejects.toThrow(/127\.0\.0\.1: loopback/);
    await expect(resolvePublicHost('198.18.0.7', lookup)).rejects.toThrow(/benchmarking/);
  });
});
