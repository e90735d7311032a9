import type { Deps } from '../deps.ts';
import type { StoredVariant } from '../schemas/experiment.ts';
import { readConversions } from '../conversions/conversion-counts.ts';

export interface ExperimentNotification {
  _id: string;
  projectId: string;
  variants?: StoredVariant[] | null;
  variantTargeted?: Record<string, number> | null;
}

/** One variant's figures: devices queued, sent and failed, devices that clicked, and its conversions. */
export interface VariantFigures {
  name: string;
  stats: {
    targeted: number;
    sent: number;
    failed: number;
    clicked: number;
    conversions: Record<string, { count: number; value: number }>;
  };
}

/**
 * The notification's delivery results, on its notificationId index (an equality alone, which SecantusDB serves by the
 * index too); only an experiment's batches carry a variant, and a send has at most one result per 500 devices.
 */
export const variantResultsQuery = (deps: Pick<Deps, 'models'>, notificationId: string) =>
  deps.models.DeliveryResult.find({ notificationId }, { variant: 1, sent: 1, failed: 1 }).lean();

/** Clicks by variant, on the notificationId index. */
export const variantClicksPipeline = (notificationId: string) => [
  { $match: { notificationId } },
  { $group: { _id: '$variant', clicked: { $sum: 1 } } },
];

/** A batch's result as variantStats sums it. */
type VariantResult = { variant?: string | null; sent?: number | null; failed?: number | null };

/**
 * Each variant's figures (CONTRACTS §19): one read of results (unless the caller read them, `read`, to sum the
 * notification's totals from the same read), one of clicks, one of conversion counts.
 */
export async function variantStats(
  deps: Pick<Deps, 'models' | 'redis' | 'config'>,
  notification: ExperimentNotification,
  read?: VariantResult[],
): Promise<VariantFigures[]> {
  const variants = notification.variants ?? [];
  if (variants.length === 0) return [];
  const [results, clicks, conversions] = await Promise.all([
    read ?? variantResultsQuery(deps, notification._id),
    deps.models.NotificationClick.aggregate<{ _id: string | null; clicked: number }>(
      variantClicksPipeline(notification._id),
    ),
    readConversions(deps, notification.projectId, [notification._id]),
  ]);
  const byVariant = conversions.get(notification._id)?.byVariant;
  return variants.map(({ name }) => {
    const own = results.filter((result) => result.variant === name);
    return {
      name,
      stats: {
        targeted: notification.variantTargeted?.[name] ?? 0,
        sent: own.reduce((sum, result) => sum + (result.sent ?? 0), 0),
        failed: own.reduce((sum, result) => sum + (result.failed ?? 0), 0),
        clicked: clicks.find((click) => click._id === name)?.clicked ?? 0,
        conversions: byVariant?.get(name) ?? {},
      },
    };
  });
}
