/** The automatic events of in-app messages (spec §6), each reported with data.inAppMessageId. */
export const inAppEvents = {
  displayed: '@iam_displayed',
  clicked: '@iam_clicked',
  closed: '@iam_closed',
} as const;

export type InAppEventName = keyof typeof inAppEvents;
