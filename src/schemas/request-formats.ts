import { ECDH } from 'node:crypto';
import { isRequestTime } from './iso-time.ts';

/** A Web Push subscription's p256dh: the point on P-256 each message is encrypted to (RFC 8291). */
function isP256PublicKey(value: string): boolean {
  try {
    ECDH.convertKey(Buffer.from(value, 'base64url'), 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/**
 * The string formats request schemas use beyond ajv-formats', and the one they tighten. RFC 3339 also allows a leap
 * second and, as ajv-formats reads it, an offset without minutes: Date parses neither, and a year past 9999 in UTC
 * cannot be stored. A date-time in a request is the strict form event data uses (CONTRACTS §5).
 */
export const requestFormats: Record<string, (value: string) => boolean> = {
  'date-time': isRequestTime,
  'p256-public-key': isP256PublicKey,
};
