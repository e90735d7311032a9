import { createHash, timingSafeEqual } from 'node:crypto';

export const adminUser = 'admin';

/** Hashing first gives both sides one length, so the comparison's time says nothing about the token. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** `Authorization: Bearer <ADMIN_TOKEN>`, or HTTP basic auth as user "admin" with ADMIN_TOKEN as the password. */
export function isAdminAuthorization(header: string | undefined, adminToken: string): boolean {
  const match = /^(Bearer|Basic) +(\S+)$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const [, scheme, credentials] = match as unknown as [string, string, string];
  if (scheme.toLowerCase() === 'bearer') return sameSecret(credentials, adminToken);
  return sameSecret(Buffer.from(credentials, 'base64').toString('utf8'), `${adminUser}:${adminToken}`);
}
