/** Names of the automatically collected events start with this (spec §6). */
export const reservedPrefix = '@';

export const firstSessionEvent = '@first_session';
/** Reported with data.notificationId when a push is opened; it feeds the notification's stats.clicked. */
export const clickedEvent = '@clicked';

/** The automatic events an SDK reports itself (CONTRACTS §3); @first_session is recorded by device creation. */
export const sdkAutomaticEvents: ReadonlySet<string> = new Set([
  clickedEvent,
  '@iam_displayed',
  '@iam_clicked',
  '@iam_closed',
]);

export const isReservedEventType = (type: string): boolean => type.startsWith(reservedPrefix);
