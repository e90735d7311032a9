/**
 * 128 random bits as hex: a device id, or a key for one call sent again with each of its retries (Idempotency-Key),
 * so that the ingress stores an event once even when an answer was lost and the call sent again. getRandomValues,
 * unlike randomUUID, also works on pages that are not a secure context (plain http on a host other than localhost).
 */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
