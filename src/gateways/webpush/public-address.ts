import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * A Web Push endpoint is whatever URL a browser's subscription named, and any page with the public client key can
 * register one: live, only push services on the public internet are called, so that a registration cannot make the
 * deliver worker probe or post to hosts inside its own network (the cloud's metadata address, an internal HTTPS
 * service). IPv4-mapped IPv6 addresses are checked as the IPv4 address they carry.
 */
const nonPublic = new BlockList();
for (const [network, prefix] of [
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
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv6');

export const notPublicCode = 'ENOTPUBLIC';

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && !nonPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The endpoint's host when it is an address literal that is not public: such a host needs no look-up to refuse. */
export function nonPublicLiteralHost(endpoint: string): string | null {
  const host = new URL(endpoint).hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) !== 0 && !isPublicAddress(host) ? host : null;
}

function notPublic(hostname: string, address: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${hostname} resolves to ${address}, which is not a public address`), {
    code: notPublicCode,
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup for the push services' agent, refusing a host name with any address that is not public. */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
    if (error) return callback(error, []);
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    if (blocked) return callback(notPublic(hostname, blocked.address), []);
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first!.address, first!.family);
  });
}
