import { isIP } from 'node:net';
import { isPublicAddress } from './public-address.ts';

/** A host name as DNS has it: labels of letters, digits and inner hyphens (a WHATWG URL has lowered and punycoded it). */
const dnsName = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

/** Names that resolve inside a network or on the machine itself: single labels, and the special-use local domains. */
const localName = /(^[^.]*$)|(^|\.)(localhost|local|localdomain|internal|intranet|lan|corp|home|home\.arpa)$/;

/**
 * Why the URL is not an https URL to a public address, or null when it is. The host is judged as written: an IP
 * address in any spelling a URL accepts (2130706433, 0x7f.1, [::ffff:127.0.0.1]) by the address it is, a name by its
 * form. What a name resolves to is checked each time a connection is made (connectToPublicAddressesOnly), since DNS
 * answers change. With allowPrivate, addresses and names inside the network are taken too (a local sandbox).
 */
export function publicHttpsUrlProblem(text: string, { allowPrivate }: { allowPrivate: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an https:// URL';
  }
  if (url.protocol !== 'https:') return 'must be an https:// URL';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isIP(host) !== 0)
    return allowPrivate || isPublicAddress(host) ? null : `must be on a globally routable address; ${host} is not one`;
  if (!dnsName.test(host)) return `must name its host by a DNS name or an IP address; ${url.hostname} is neither`;
  return allowPrivate || !localName.test(host) ? null : `must be on a public host; ${host} is a local name`;
}
