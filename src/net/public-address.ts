import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import type { Agent, RequestOptions } from 'node:https';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';

/**
 * A URL the service is handed to call (a webhook, a Web Push endpoint) is called only on a globally routable unicast
 * address (CONTRACTS §17), so that it cannot make a worker probe or post to hosts inside its own network (the cloud's
 * metadata address, an internal HTTPS service) nor to the machine itself. The special-purpose ranges of IANA's
 * registries are ipaddr.js's (documentation, benchmarking, shared, reserved, multicast and the rest); IPv6 outside
 * 2000::/3 is not global unicast. IPv4 addresses inside IPv6 ones (mapped, translated, NAT64, 6to4) are judged as
 * the IPv4 address they carry; the host's own interface addresses are refused whatever their range.
 */
const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');
const wellKnownNat64 = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address an IPv6 address carries by a standard translation, or null. */
function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const parts = address.parts;
  const fromGroups = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
  if (range === 'ipv4Mapped' || range === 'rfc6145' || address.match(wellKnownNat64))
    return fromGroups(parts[6]!, parts[7]!);
  if (range === '6to4') return fromGroups(parts[1]!, parts[2]!);
  return null;
}

/** The host's own interface addresses, read at each check since interfaces come and go. */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? []) own.add(ipaddr.parse(entry.address.replace(/%.*$/, '')).toNormalizedString());
  return own;
}

function isGlobalUnicast(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (ownAddresses().has(address.toNormalizedString())) return false;
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const carried = carriedIpv4(v6);
  if (carried) return isGlobalUnicast(carried);
  return v6.match(globalUnicastV6) && v6.range() === 'unicast';
}

export const notPublicCode = 'ENOTPUBLIC';

export function isPublicAddress(address: string): boolean {
  return isIP(address) !== 0 && isGlobalUnicast(ipaddr.parse(address.replace(/%.*$/, '')));
}

function notPublic(host: string, address: string): NodeJS.ErrnoException {
  const where = host === address ? host : `${host} resolves to ${address}, which`;
  return Object.assign(new Error(`${where} is not a public address`), { code: notPublicCode });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type LookupAll = (hostname: string, callback: (error: Error | null, addresses: LookupAddress[]) => void) => void;

const systemLookup: LookupAll = (hostname, callback) =>
  lookup(hostname, { all: true } as LookupAllOptions, (error, addresses) => callback(error, addresses));

/** A look-up refusing a host name with any address that is not public. */
function publicOnlyLookup(resolve: LookupAll) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter(
        (entry) => options.family === undefined || options.family === 0 || entry.family === options.family,
      );
      const blocked = allowed.find((entry) => !isPublicAddress(entry.address));
      if (blocked) return callback(notPublic(hostname, blocked.address), []);
      if (options.all) return callback(null, allowed);
      const [first] = allowed;
      return callback(null, first!.address, first!.family);
    });
  };
}

/**
 * Makes the agent connect to public addresses only. The host checked is the one Node connects to, as the library
 * that sends the push parsed it from the endpoint (a URL parser of our own could read another host from the same
 * endpoint): an address is checked before connecting, a name by its look-up, each answer every time. `resolve` is
 * the system's resolver unless given.
 */
export function connectToPublicAddressesOnly(agent: Agent, resolve: LookupAll = systemLookup): void {
  const connect = agent.createConnection.bind(agent);
  const checkedLookup = publicOnlyLookup(resolve);
  agent.createConnection = (options: RequestOptions, callback?: (error: Error | null, stream: Duplex) => void) => {
    const host = String(options.host ?? options.hostname ?? '').replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !isPublicAddress(host)) {
      callback?.(notPublic(host, host), undefined as unknown as Duplex);
      return undefined;
    }
    return connect({ ...options, lookup: checkedLookup }, callback);
  };
}
