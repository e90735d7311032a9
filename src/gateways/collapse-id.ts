import { createHash } from 'node:crypto';

/**
 * CONTRACTS §1: a push carries its notification id as its collapse id, so a push sent again after a crash shows once.
 * Where a gateway's limit cannot hold the id, a form of it that fits stands in for it.
 */

/** A UUID without its hyphens, else a hash: at most 32 characters of the URL-safe base64 alphabet. */
function shortForm(notificationId: string): string {
  const compact = notificationId.replace(/-/g, '');
  return /^[A-Za-z0-9_]{1,32}$/.test(compact)
    ? compact
    : createHash('sha256').update(notificationId).digest('base64url').slice(0, 32);
}

/** APNs refuses an apns-collapse-id over 64 bytes; a journey send's id (`j-<journey>-<job>-<n>`) can be longer. */
export function apnsCollapseId(notificationId: string): string {
  return Buffer.byteLength(notificationId) <= 64 ? notificationId : shortForm(notificationId);
}

/** A Web Push Topic is at most 32 characters of that alphabet (RFC 8030 §5.4); the service worker's tag is the same. */
export const webPushTopic = shortForm;
