import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import type { Agent, RequestOptions } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * A URL the service is handed to call (a Web Push endpoint, which any page with the public client key can register)
 * is called only on the public internet, so that it cannot make a worker probe or post to hosts inside its own
 * network (the cloud's metadata address, an internal HTTPS service). IPv4 addresses inside IPv6 ones (mapped, translated, NAT64, 6to4) are checked as the IPv4 address they
 * carry; Teredo's, stored inverted beside a relay's, are refused whole (no push service is reached through Teredo).
 */
const nonPublicIpv4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
];

/** An IPv4 address as the two IPv6 groups that carry it inside an IPv6 address. */
function ipv4Groups(address: string): string {
  const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

const nonPublic = new BlockList();
for (const [network, prefix] of nonPublicIpv4) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
  nonPublic.addSubnet(`::ffff:0:${ipv4Groups(network)}`, 96 + prefix, 'ipv6');
  nonPublic.addSubnet(`64:ff9b::${ipv4Groups(network)}`, 96 + prefix, 'ipv6');
  nonPublic.addSubnet(`2002:${ipv4Groups(network)}::`, 16 + prefix, 'ipv6');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible addresses
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['2001::', 32], // Teredo: an IPv4 address inside, obfuscated
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv6');

export const notPublicCode = 'ENOTPUBLIC';

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && !nonPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function notPublic(host: string, address: string): NodeJS.ErrnoException {
  const where = host === address ? host : `${host} resolves to ${address}, which`;
  return Object.assign(new Error(`${where} is not a public address`), { code: notPublicCode });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup refusing a host name with any address that is not public. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
    if (error) return callback(error, []);
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    if (blocked) return callback(notPublic(hostname, blocked.address), []);
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first!.address, first!.family);
  });
}

/**
 * Makes the agent connect to public addresses only. The host checked is the one Node connects to, as the library
 * that sends the push parsed it from the endpoint (a URL parser of our own could read another host from the same
 * endpoint): an address is checked before connecting, a name by its look-up, each answer every time.
 */
export function connectToPublicAddressesOnly(agent: Agent): void {
  const connect = agent.createConnection.bind(agent);
  agent.createConnection = (options: RequestOptions, callback?: (error: Error | null, stream: Duplex) => void) => {
    const host = String(options.host ?? options.hostname ?? '').replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !isPublicAddress(host)) {
      callback?.(notPublic(host, host), undefined as unknown as Duplex);
      return undefined;
    }
    return connect({ ...options, lookup: publicOnlyLookup }, callback);
  };
}
