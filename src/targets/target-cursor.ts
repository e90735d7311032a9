import type { Models } from '../models/index.ts';
import type { SegmentResolver, TargetQuery } from './segment-resolver.ts';
import type { TargetDevice } from './target-device.ts';

export interface Targets {
  projectId: string;
  targetType: 'segment' | 'userId' | 'device';
  targetIds: string[];
}

/** A send to users or to devices: the query the cursor reads, on its own so that test/query-plans.test.ts explains it as sent. */
export function listedTargetsQuery(models: Models, targets: Targets, query: TargetQuery) {
  const field = targets.targetType === 'userId' ? 'userId' : 'deviceId';
  return models.Device.find(
    {
      projectId: targets.projectId,
      [field]: { $in: targets.targetIds },
      isSubscribed: true,
      ...(query.afterId !== null && { _id: { $gt: query.afterId } }),
    },
    query.projection,
  )
    .sort({ _id: 1 })
    .lean<TargetDevice[]>();
}

/** Subscribed target devices in _id order, streamed by a cursor so that memory stays flat for any audience size. */
export function targetCursor(models: Models, segments: SegmentResolver, targets: Targets, query: TargetQuery): AsyncIterable<TargetDevice> {
  if (targets.targetType === 'segment') return segments.cursorFor(targets.projectId, targets.targetIds, query);
  return listedTargetsQuery(models, targets, query).cursor({ batchSize: 1000 });
}
