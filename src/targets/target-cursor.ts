import { Types } from 'mongoose';
import type { Models } from '../models/index.ts';
import type { SegmentResolver } from './segment-resolver.ts';

/** The least a fan-out needs of a device: its delivery batch is chosen by platform, the rest is read at delivery. */
export interface TargetDevice {
  _id: Types.ObjectId;
  deviceId: string;
  platform: 'android' | 'ios' | 'web';
}

export interface Targets {
  projectId: string;
  targetType: 'segment' | 'userId' | 'device';
  targetIds: string[];
}

/** Subscribed target devices in _id order, streamed by a cursor so that memory stays flat for any audience size. */
export function targetCursor(models: Models, segments: SegmentResolver, targets: Targets, afterId: string | null): AsyncIterable<TargetDevice> {
  if (targets.targetType === 'segment') return segments.cursorFor(targets.projectId, targets.targetIds, afterId);
  const field = targets.targetType === 'userId' ? 'userId' : 'deviceId';
  return models.Device.find(
    {
      projectId: targets.projectId,
      [field]: { $in: targets.targetIds },
      isSubscribed: true,
      ...(afterId !== null && { _id: { $gt: new Types.ObjectId(afterId) } }),
    },
    { deviceId: 1, platform: 1 },
  )
    .sort({ _id: 1 })
    .lean<TargetDevice[]>()
    .cursor({ batchSize: 1000 });
}
