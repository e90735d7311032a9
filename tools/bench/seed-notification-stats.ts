import { randomUUID } from 'node:crypto';
import type { Models } from '../../src/models/index.ts';
import { dayMs } from '../../src/infra/utc-day.ts';
import { addToDay } from '../../src/overview/daily-counts.ts';

const batchSize = 500;
const insertChunk = 5000;

export interface NotificationStatsMix {
  /** Devices each notification targets. */
  targeted: number;
  /** Of the targeted: sent, failed, unsubscribed (the rest capped); and of the sent, the share that clicked. */
  sentShare: number;
  failedShare: number;
  unsubscribedShare: number;
  clickShare: number;
}

export const defaultStatsMix = (devices: number): NotificationStatsMix => ({
  targeted: Math.max(1, Math.floor(devices / 10)),
  sentShare: 0.95,
  failedShare: 0.03,
  unsubscribedShare: 0.01,
  clickShare: 0.03,
});

async function insertInChunks(
  collection: { insertMany(docs: never[], options: object): Promise<unknown> },
  docs: object[],
) {
  for (let start = 0; start < docs.length; start += insertChunk)
    await collection.insertMany(docs.slice(start, start + insertChunk) as never[], { ordered: false });
}

/**
 * `count` completed notifications spread evenly over the last `days` days, newest first, each with the records a send
 * leaves for its stats: its delivery batches' outcome counts (one per 500 targeted devices), one click per clicking
 * device (device-<k>, k below `devices`), and the project's daily counts of them; the seeded devices subscribe over
 * those days.
 */
export async function seedNotificationStats(
  models: Models,
  projectId: string,
  options: { count: number; devices: number; days?: number; mix?: NotificationStatsMix; now?: number },
): Promise<void> {
  const { count, devices, days = 30, now = Date.now() } = options;
  const mix = options.mix ?? defaultStatsMix(devices);
  const spacing = (days * dayMs) / Math.max(count, 1);
  const notifications = Array.from({ length: count }, (_, index) => ({
    _id: randomUUID(),
    projectId,
    status: 'completed',
    targetType: 'segment',
    targetIds: ['bench'],
    body: `Bench notification ${index}`,
    stats: { targeted: mix.targeted },
    createdAt: new Date(now - index * spacing),
  }));
  await models.Notification.insertMany(notifications);
  const results: object[] = [];
  const clicks: object[] = [];
  for (const [index, notification] of notifications.entries()) {
    for (let first = 0; first < mix.targeted; first += batchSize) {
      const size = Math.min(batchSize, mix.targeted - first);
      const sent = Math.round(size * mix.sentShare);
      const failed = Math.round(size * mix.failedShare);
      const unsubscribed = Math.round(size * mix.unsubscribedShare);
      results.push({
        _id: `${notification._id}:${first / batchSize}`,
        notificationId: notification._id,
        sent,
        failed,
        unsubscribed,
        capped: size - sent - failed - unsubscribed,
        createdAt: notification.createdAt,
        updatedAt: notification.createdAt,
      });
    }
    const clicking = Math.round(mix.targeted * mix.sentShare * mix.clickShare);
    for (let offset = 0; offset < clicking; offset++) {
      const deviceId = `device-${(index * 7919 + offset) % devices}`;
      clicks.push({
        _id: `${notification._id}:${deviceId}`,
        notificationId: notification._id,
        deviceId,
        clickedAt: new Date(notification.createdAt.getTime() + 60_000),
      });
    }
  }
  await insertInChunks(models.DeliveryResult.collection, results);
  await insertInChunks(models.NotificationClick.collection, clicks);
  // The daily counts the deliver step and the click path keep, for the day each notification went out, and the
  // devices subscribing in even numbers over the days.
  const dayOf = (time: Date) => Math.floor(time.getTime() / dayMs);
  const byDay = new Map<number, { sent: number; clicked: number; subscribed: number; at: Date }>();
  for (const notification of notifications) {
    const entry = byDay.get(dayOf(notification.createdAt)) ?? {
      sent: 0,
      clicked: 0,
      subscribed: 0,
      at: notification.createdAt,
    };
    entry.sent += Math.round(mix.targeted * mix.sentShare);
    entry.clicked += Math.round(mix.targeted * mix.sentShare * mix.clickShare);
    byDay.set(dayOf(notification.createdAt), entry);
  }
  const perDay = Math.floor(devices / byDay.size);
  [...byDay.values()].forEach((entry, index) => {
    entry.subscribed = index === 0 ? devices - perDay * (byDay.size - 1) : perDay;
  });
  for (const { at, ...counts } of byDay.values()) await addToDay(models, projectId, counts, at);
}
