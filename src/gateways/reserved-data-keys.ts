const fcmReservedWords = new Set(['from', 'message_type']);

export function isFcmReservedDataKey(key: string): boolean {
  return fcmReservedWords.has(key) || key.startsWith('google') || key.startsWith('gcm');
}

/**
 * Data keys a gateway keeps for itself. FCM refuses a whole message whose data holds one of its reserved words
 * ("Invalid data payload key"), so every Android and FCM web push of such a send would fail; APNs reads `aps` beside
 * the custom keys as the notification itself, so the key could not travel to iOS.
 */
export function reservedDataKeyProblem(key: string): string | null {
  if (isFcmReservedDataKey(key))
    return 'is reserved by FCM, which refuses a push whose data holds from, message_type or a key starting with google or gcm';
  if (key === 'aps') return 'is reserved by APNs for the notification itself';
  if (key === 'notificationId')
    return "is set by every push to the notification's id, which the SDK reports clicks with; name yours otherwise";
  return null;
}
