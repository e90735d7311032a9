/**
 * How long a gateway keeps a push for an offline device: FCM's default, four weeks, set explicitly where a gateway
 * has no documented default (APNs without apns-expiration) or requires one (Web Push's TTL).
 */
export const pushTimeToLiveSeconds = 28 * 24 * 3600;
