import type { Models } from '../models/index.ts';
import { deliveryOutcomes, type DeliveryOutcome, type DeliverySummary } from '../schemas/delivery-log.ts';
import { assertProjectNotification } from './notification-view.ts';

/** One count per platform, outcome and reason, from the notification's delivery log (its notificationId index). */
export const deliverySummaryPipeline = (notificationId: string) => [
  { $match: { notificationId } },
  {
    $group: {
      _id: { platform: '$platform', outcome: '$outcome', reason: '$reason' },
      count: { $sum: 1 },
    },
  },
];

interface Group {
  _id: { platform: string; outcome: DeliveryOutcome; reason?: string | null };
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
  const groups = await models.DeliveryLog.aggregate<Group>(deliverySummaryPipeline(notificationId));
  const platforms = new Map<string, Record<DeliveryOutcome, number>>();
  const reasons = new Map<string, { outcome: string; reason: string; count: number }>();
  for (const { _id, count } of groups) {
    const counts = platforms.get(_id.platform) ?? noOutcomes();
    counts[_id.outcome] += count;
    platforms.set(_id.platform, counts);
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
