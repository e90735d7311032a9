import type { KeyedWebhookEvent } from '../queues/webhook.ts';
import type { NotificationView } from '../schemas/notification.ts';

/** The events of CONTRACTS §17, each keyed by what it is about, so that publishing one again queues nothing new. */

export function notificationCompleted(view: NotificationView, at: Date): KeyedWebhookEvent {
  return {
    key: `notification.completed\n${view.id}`,
    event: { type: 'notification.completed', timestamp: at.toISOString(), data: view },
  };
}

export function messageFailed(notificationId: string, deviceId: string, reason: string, at: Date): KeyedWebhookEvent {
  return {
    key: `message.failed\n${notificationId}\n${deviceId}`,
    event: { type: 'message.failed', timestamp: at.toISOString(), data: { notificationId, deviceId, reason } },
  };
}

export function messageClicked(
  notificationId: string,
  deviceId: string,
  at: Date,
  buttonId?: string,
): KeyedWebhookEvent {
  return {
    key: `message.clicked\n${notificationId}\n${deviceId}`,
    event: {
      type: 'message.clicked',
      timestamp: at.toISOString(),
      data: { notificationId, deviceId, ...(buttonId !== undefined && { buttonId }) },
    },
  };
}

export interface UnsubscribedDevice {
  deviceId: string;
  userId: string | null;
  platform: string;
  reason: string;
}

/** Keyed by the notification whose push found the token dead: one device is unsubscribed once per token. */
export function deviceUnsubscribed(notificationId: string, device: UnsubscribedDevice, at: Date): KeyedWebhookEvent {
  return {
    key: `device.unsubscribed\n${notificationId}\n${device.deviceId}`,
    event: { type: 'device.unsubscribed', timestamp: at.toISOString(), data: { ...device } },
  };
}

const inAppWebhookTypes = {
  '@iam_displayed': 'in_app.displayed',
  '@iam_clicked': 'in_app.clicked',
  '@iam_closed': 'in_app.closed',
} as const;

/**
 * The in_app.* event for a device's @iam_* report, or null for any other event. Each report is its own event (a
 * message may be shown again): keyed by the report, so that the SDK's retry of it queues nothing new.
 */
export function inAppReported(
  report: { type: string; deviceId: string; inAppMessageId: unknown; buttonId: unknown; reportKey: string },
  at: Date,
): KeyedWebhookEvent | null {
  const type = inAppWebhookTypes[report.type as keyof typeof inAppWebhookTypes];
  if (type === undefined || typeof report.inAppMessageId !== 'string') return null;
  const data = {
    inAppMessageId: report.inAppMessageId,
    deviceId: report.deviceId,
    ...(typeof report.buttonId === 'string' && { buttonId: report.buttonId }),
  };
  return { key: `${type}\n${report.reportKey}`, event: { type, timestamp: at.toISOString(), data } };
}

/** Keyed by the push, the subject and the conversion event: each is credited once (CONTRACTS §19). */
export function messageConverted(conversion: {
  notificationId: string;
  subjectType: 'device' | 'user';
  subjectId: string;
  type: string;
  value?: number;
  at: number;
}): KeyedWebhookEvent {
  const { notificationId, subjectType, subjectId, type, value } = conversion;
  const subject = subjectType === 'device' ? { deviceId: subjectId } : { userId: subjectId };
  return {
    key: `message.converted\n${notificationId}\n${subjectType}:${subjectId}\n${type}`,
    event: {
      type: 'message.converted',
      timestamp: new Date(conversion.at).toISOString(),
      data: { notificationId, ...subject, event: type, ...(value !== undefined && { value }) },
    },
  };
}
