/**
 * A key for one call, sent again with each of its retries (Idempotency-Key): the ingress then stores an event once
 * even when an answer was lost and the call sent again. getRandomValues, unlike randomUUID, also works on pages that
 * are not a secure context.
 */
export function newCallKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
