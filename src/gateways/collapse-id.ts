import { createHash } from 'node:crypto';

/**
 * A collapse id within a gateway's limits (APNs: 64 bytes; web push Topic: at most 32 characters of the URL-safe
 * base64 alphabet). A notification id (a UUID) fits once its hyphens are dropped; anything else is hashed.
 */
export function boundedCollapseId(collapseId: string): string {
  const compact = collapseId.replace(/-/g, '');
  return /^[A-Za-z0-9_]{1,32}$/.test(compact)
    ? compact
    : createHash('sha256').update(collapseId).digest('base64url').slice(0, 32);
}
