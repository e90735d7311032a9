import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { NotificationView, NotificationStats } from '../schemas/notification.ts';
import { notFound } from '../errors.ts';
import { countClicks } from './notification-clicks.ts';
import { zoneProgress, type ZoneOutcomes } from './zone-progress.ts';
import { readConversions, type NotificationConversions } from '../conversions/conversion-counts.ts';
import { variantStats, type VariantFigures } from '../experiments/variant-stats.ts';

export type StatsDeps = Pick<Deps, 'models' | 'redis' | 'config'>;

export function deliveryResultsQuery(models: Models, notificationIds: string[]) {
  return models.DeliveryResult.find(
    { notificationId: { $in: notificationIds } },
    { notificationId: 1, sent: 1, failed: 1, unsubscribed: 1, capped: 1, localTimeAt: 1, variant: 1 },
  ).lean();
}

export type DeliveryResultRows = Awaited<ReturnType<typeof deliveryResultsQuery>>;

/** A notification of another project is not found, as if it did not exist. */
export function projectNotificationQuery(models: Models, projectId: string, notificationId: string) {
  return models.Notification.findOne({ _id: notificationId, projectId }).lean();
}

const missingNotification = (notificationId: string) =>
  notFound(`No notification "${notificationId}" in this project.`);

/** A 404 unless the project has the notification: what is read about it next is read by notification id alone. */
export async function assertProjectNotification(models: Models, projectId: string, notificationId: string) {
  if (!(await models.Notification.exists({ _id: notificationId, projectId })))
    throw missingNotification(notificationId);
}

type DeliveryStats = Omit<NotificationStats, 'targeted' | 'conversions'> & {
  zoneOutcomes: ZoneOutcomes;
  conversions: NotificationConversions;
};

/**
 * Sent, failed and unsubscribed are summed over each notification's delivery batches (the DeliveryResult model), and
 * a local-time send's outcomes by zone; clicked counts its clicks (the NotificationClick model); conversions are
 * Redis counters (CONTRACTS §19). One query of each kind for a whole page of one project's notifications, the
 * results' unless they were read already (`read`).
 */
export async function deliveryStats(
  deps: StatsDeps,
  projectId: string,
  notificationIds: string[],
  read?: DeliveryResultRows,
): Promise<Map<string, DeliveryStats>> {
  const [results, clicks, conversions] = await Promise.all([
    read ?? deliveryResultsQuery(deps.models, notificationIds),
    countClicks(deps.models, notificationIds),
    readConversions(deps, projectId, notificationIds),
  ]);
  const stats = new Map<string, DeliveryStats>(
    notificationIds.map((id) => [
      id,
      {
        sent: 0,
        failed: 0,
        unsubscribed: 0,
        capped: 0,
        clicked: clicks.get(id) ?? 0,
        zoneOutcomes: new Map(),
        conversions: conversions.get(id)!,
      },
    ]),
  );
  for (const result of results) {
    const sums = stats.get(result.notificationId)!;
    sums.sent += result.sent ?? 0;
    sums.failed += result.failed ?? 0;
    sums.unsubscribed += result.unsubscribed ?? 0;
    sums.capped += result.capped ?? 0;
    if (result.localTimeAt != null) {
      const outcomes = (result.sent ?? 0) + (result.failed ?? 0) + (result.unsubscribed ?? 0) + (result.capped ?? 0);
      sums.zoneOutcomes.set(result.localTimeAt, (sums.zoneOutcomes.get(result.localTimeAt) ?? 0) + outcomes);
    }
  }
  return stats;
}

type StoredNotification = NonNullable<Awaited<ReturnType<typeof projectNotificationQuery>>>;

export async function findNotificationView(
  deps: StatsDeps,
  projectId: string,
  notificationId: string,
): Promise<NotificationView> {
  // The notification first, its counts after: every batch writes its counts before its notification can be completed,
  // so counts read in parallel could predate a status read a moment later, and show a completed send that sent nothing.
  const notification = await projectNotificationQuery(deps.models, projectId, notificationId);
  if (!notification) throw missingNotification(notificationId);
  // One read of the batches' results for the totals and the variants alike: a batch's result written between two
  // reads would show a send sent to every device it targeted while a variant still lacked that batch.
  const results = await deliveryResultsQuery(deps.models, [notificationId]);
  const [stats, variants] = await Promise.all([
    deliveryStats(deps, projectId, [notificationId], results),
    variantStats(deps, notification, results),
  ]);
  return toNotificationView(notification, stats.get(notificationId)!, variants);
}

/** An experiment's standing as the view shows it (CONTRACTS §19): its decision once taken. */
function experimentView({ experiment }: StoredNotification): NotificationView['experiment'] {
  if (!experiment) return undefined;
  const { status, testPercent, metric, winner, pValue, decidedAt, decidedBy } = experiment;
  return {
    status,
    testPercent,
    metric,
    ...(winner !== undefined && { winner }),
    ...(pValue !== undefined && { pValue }),
    ...(decidedAt !== undefined && { decidedAt: new Date(decidedAt).toISOString() }),
    ...(decidedBy !== undefined && { decidedBy }),
  };
}

export function toNotificationView(
  notification: StoredNotification,
  sums: DeliveryStats,
  variants: VariantFigures[] = [],
): NotificationView {
  const experiment = experimentView(notification);
  const { zoneOutcomes, conversions, ...counts } = sums;
  const zones = zoneProgress(notification.localTimeZones, zoneOutcomes, notification.winnerZones);
  const stats = Object.keys(conversions.total).length === 0 ? counts : { ...counts, conversions: conversions.total };
  return {
    id: notification._id,
    createdAt: notification.createdAt.toISOString(),
    status: notification.status,
    title: notification.title ?? null,
    body: notification.body ?? '',
    url: notification.url ?? null,
    imageUrl: notification.imageUrl ?? null,
    stats: { targeted: notification.stats?.targeted ?? 0, ...stats },
    ...(notification.templateId && { templateId: notification.templateId }),
    ...(zones && { zones }),
    ...(variants.length > 0 && { variants }),
    ...(experiment && { experiment }),
    ...notification.timing,
    ...notification.options,
  };
}
