import type { Platform } from '../schemas/platforms.ts';

/**
 * OneSignal's subscriptions CSV export (POST /players/csv_export), column by column as its documentation defines
 * them: `id` the OneSignal player (subscription) id, `identifier` the push token (a Web Push subscription's endpoint
 * on web), `device_type` the platform code, `language`, `timezone` the offset from UTC in seconds, `tags` the data
 * tags as a JSON object, `invalid_identifier` t for unsubscribed and f for subscribed; and the extra columns
 * `external_user_id` (the user id), `timezone_id` (an IANA zone), `web_auth` and `web_p256` (a Web Push
 * subscription's keys). The others (session_count, last_active, ad_id, ...) have no counterpart here and are ignored.
 */
const platformByDeviceType: Record<string, Platform> = {
  '0': 'ios',
  '1': 'android',
  // Chrome, Firefox and Edge web push (5, 8, 17); Safari's legacy push (7) reaches no standard Web Push endpoint.
  '5': 'web',
  '8': 'web',
  '17': 'web',
};

export function isOneSignalHeader(columns: string[]): boolean {
  return ['id', 'identifier', 'device_type'].every((column) => columns.includes(column));
}

/**
 * A whole-hour offset as the IANA zone of that fixed offset (Etc/GMT-9 is UTC+9: the sign is inverted, as POSIX
 * writes it); another offset has no IANA name, and the device keeps the project's zone.
 */
function zoneOfOffset(seconds: string): string | undefined {
  const offset = Number(seconds);
  if (seconds === '' || !Number.isInteger(offset) || offset % 3600 !== 0) return undefined;
  const hours = offset / 3600;
  return hours === 0 ? 'Etc/UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

/** OneSignal may write a key in standard base64; a subscription's keys are URL-safe base64 (RFC 8291). */
const urlSafe = (base64: string) => base64.replaceAll('+', '-').replaceAll('/', '_');

function parsedTags(cell: string): Record<string, unknown> | string {
  if (cell === '') return {};
  try {
    const tags: unknown = JSON.parse(cell);
    if (typeof tags === 'object' && tags !== null && !Array.isArray(tags)) return tags as Record<string, unknown>;
  } catch {}
  return 'tags must be a JSON object of data tags';
}

/** The row's fields for validation as an NDJSON row would be, or why the row has none. */
export function fieldsFromOneSignalCsv(cells: Record<string, string>): Record<string, unknown> | string {
  const deviceType = cells.device_type ?? '';
  const platform = platformByDeviceType[deviceType];
  if (!platform) return `device_type ${deviceType || '(empty)'} is not an iOS, Android or web push subscription`;
  const tags = parsedTags(cells.tags ?? '');
  if (typeof tags === 'string') return tags;
  const identifier = cells.identifier ?? '';
  const webKeys = platform === 'web' && cells.web_auth && cells.web_p256;
  const timezone = cells.timezone_id || zoneOfOffset(cells.timezone ?? '');
  return {
    id: cells.id,
    platform,
    ...(webKeys
      ? {
          webPush: { endpoint: identifier, keys: { p256dh: urlSafe(cells.web_p256!), auth: urlSafe(cells.web_auth!) } },
        }
      : identifier !== '' && { pushToken: identifier }),
    ...(cells.external_user_id && { userId: cells.external_user_id }),
    ...(cells.language && { language: cells.language }),
    ...(timezone && { timezone }),
    ...(Object.keys(tags).length > 0 && { tags }),
    ...(cells.invalid_identifier && { isSubscribed: cells.invalid_identifier !== 't' }),
  };
}
