/**
 * What each real gateway refuses of the message options (CONTRACTS §10, §14), and the request headers that carry them,
 * which the sandbox records with each delivery.
 */
export type HeaderValue = string | string[] | undefined;
export type OptionHeaders = Record<string, string>;

const first = (value: HeaderValue) => (Array.isArray(value) ? value[0] : value);

/** The headers of `names` the request has, lower-case as HTTP/2 and Node give them. */
export function optionHeaders(headers: Record<string, HeaderValue>, names: readonly string[]): OptionHeaders {
  const found: OptionHeaders = {};
  for (const name of names) {
    const value = first(headers[name]);
    if (value !== undefined) found[name] = value;
  }
  return found;
}

export const apnsOptionHeaders = ['apns-priority', 'apns-expiration', 'apns-collapse-id', 'apns-push-type'] as const;
export const webPushOptionHeaders = ['ttl', 'urgency', 'topic'] as const;

/** APNs: `BadPriority` for a priority other than 5 or 10, or 10 on a background push; `BadExpirationDate`. */
export function apnsOptionProblem(headers: OptionHeaders): string | undefined {
  const priority = headers['apns-priority'];
  if (priority !== undefined && priority !== '5' && priority !== '10') return 'BadPriority';
  if (headers['apns-push-type'] === 'background' && priority === '10') return 'BadPriority';
  const expiration = headers['apns-expiration'];
  if (expiration !== undefined && !/^\d+$/.test(expiration)) return 'BadExpirationDate';
  return undefined;
}

const urgencies = ['very-low', 'low', 'normal', 'high'];

/** RFC 8030: TTL a count of seconds, Urgency one of four (§5.3), Topic at most 32 URL-safe base64 characters (§5.4). */
export function webPushOptionProblem(headers: OptionHeaders): string | undefined {
  const { ttl, urgency, topic } = headers;
  if (ttl !== undefined && !/^\d+$/.test(ttl)) return 'the TTL header must be a number of seconds';
  if (urgency !== undefined && !urgencies.includes(urgency))
    return `the Urgency header must be one of ${urgencies.join(', ')}`;
  if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic))
    return 'the Topic header must be at most 32 characters of the URL-safe base64 alphabet';
  return undefined;
}

interface FcmOptions {
  android?: { ttl?: unknown; priority?: unknown };
  webpush?: { headers?: Record<string, unknown> };
}

/** FCM HTTP v1: `android.ttl` a duration in seconds with an `s` ("3600s"), `android.priority` normal or high. */
export function fcmOptionProblem(message: FcmOptions): string | undefined {
  const { ttl, priority } = message.android ?? {};
  if (ttl !== undefined && (typeof ttl !== 'string' || !/^\d+(\.\d{1,9})?s$/.test(ttl)))
    return `Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), ${JSON.stringify(ttl)}`;
  if (priority !== undefined && !['normal', 'high'].includes(String(priority).toLowerCase()))
    return `Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), ${JSON.stringify(priority)}`;
  const headers = Object.fromEntries(
    Object.entries(message.webpush?.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
  return webPushOptionProblem(headers);
}
