import type { Models } from '../models/index.ts';
import { deliveryOutcomes, type DeliveryOutcome, type DeliverySummary } from '../schemas/delivery-log.ts';
import { assertProjectNotification } from './notification-view.ts';

/**
 * One count per platform, outcome and reason of the devices not sent, from the notification's delivery log (its
 * notificationId index); its sent entries written before history held them are counted from history.
 */
export const deliverySummaryPipeline = (notificationId: string) => [
  { $match: { notificationId } },
  { $match: { outcome: { $ne: 'sent' } } },
  {
    $group: {
      _id: { platform: '$platform', outcome: '$outcome', reason: '$reason' },
      count: { $sum: 1 },
    },
  },
];

/** The notification's sent pushes per platform, from its history, on its (notificationId, _id) index. */
export const sentByPlatformPipeline = (notificationId: string) => [
  { $match: { notificationId } },
  { $group: { _id: { platform: '$platform', outcome: 'sent' }, count: { $sum: 1 } } },
];

interface Group {
  _id: { platform: string | null; outcome: DeliveryOutcome; reason?: string | null };
  count: number;
}

const noOutcomes = () =>
  Object.fromEntries(deliveryOutcomes.map((outcome) => [outcome, 0])) as Record<DeliveryOutcome, number>;

/** A notification's outcomes by platform and its failure reasons with counts: what its console page shows. */
export async function deliverySummary(
  models: Models,
  projectId: string,
  notificationId: string,
): Promise<DeliverySummary> {
  await assertProjectNotification(models, projectId, notificationId);
  const [sent, others] = await Promise.all([
    models.History.aggregate<Group>(sentByPlatformPipeline(notificationId)),
    models.DeliveryLog.aggregate<Group>(deliverySummaryPipeline(notificationId)),
  ]);
  const groups = [...sent, ...others];
  const platforms = new Map<string, Record<DeliveryOutcome, number>>();
  const reasons = new Map<string, { outcome: string; reason: string; count: number }>();
  for (const { _id, count } of groups) {
    const platform = _id.platform ?? 'unknown';
    const counts = platforms.get(platform) ?? noOutcomes();
    counts[_id.outcome] += count;
    platforms.set(platform, counts);
    if (_id.reason == null) continue;
    const key = `${_id.outcome}\n${_id.reason}`;
    const known = reasons.get(key) ?? { outcome: _id.outcome, reason: _id.reason, count: 0 };
    known.count += count;
    reasons.set(key, known);
  }
  return {
    byPlatform: [...platforms]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([platform, counts]) => ({ platform, ...counts })),
    reasons: [...reasons.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
  };
}
