import { ECDH } from 'node:crypto';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isStorableTime, isUnstorableTime } from './iso-time.ts';

const rfc3339DateTime = fullFormats['date-time'] as { validate(value: string): boolean };

/**
 * The instant a time in a request field names: what ajv-formats takes as RFC 3339 (with "+0900", "t", a space) and
 * Date can parse, or null. The space goes to a "T" first: with a space, V8 parses the string by its legacy rules,
 * which read the year 0049 as 2049.
 */
export function parseRequestTime(value: string): Date | null {
  if (!rfc3339DateTime.validate(value)) return null;
  const time = new Date(`${value.slice(0, 10)}T${value.slice(11)}`);
  return !Number.isNaN(time.getTime()) && isStorableTime(time) ? time : null;
}

function isRequestTime(value: string): boolean {
  return parseRequestTime(value) !== null;
}

/** A Web Push subscription's p256dh: the point on P-256 each message is encrypted to, uncompressed (RFC 8291). */
function isP256PublicKey(value: string): boolean {
  const key = Buffer.from(value, 'base64url');
  // 0x04 marks the uncompressed form; OpenSSL would also take the hybrid forms (0x06, 0x07).
  if (key[0] !== 0x04) return false;
  try {
    ECDH.convertKey(key, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/** A BCP 47 language tag (`ko`, `pt-BR`, `zh-Hant-TW`) that the runtime's Intl takes. */
function isLanguageTag(value: string): boolean {
  if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(value)) return false;
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

/** The tag as Intl writes it (`pt-br` is `pt-BR`), so that stored languages compare by equality. */
export const canonicalLanguageTag = (value: string): string => Intl.getCanonicalLocales(value)[0]!;

/**
 * An IANA time zone name the runtime's Intl knows, aliases included (a browser may report `Asia/Calcutta`). Offsets
 * such as `+09:00`, which Intl also takes, are not names: they know no daylight saving time.
 */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The string formats request schemas use beyond ajv-formats', and the one they tighten: RFC 3339 also allows a leap
 * second and, as ajv-formats reads it, an offset without minutes, which Date parses neither of, and a year past 9999
 * in UTC cannot be stored. A storable-time is any text that is not such a time: a field open to text, where a time
 * is stored as a time.
 */
export const requestFormats: Record<string, (value: string) => boolean> = {
  'date-time': isRequestTime,
  'p256-public-key': isP256PublicKey,
  'language-tag': isLanguageTag,
  'time-zone': isTimeZone,
  'storable-time': (value) => !isUnstorableTime(value),
};
