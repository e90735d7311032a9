import type { CountDeps } from '../events/pending-counts.ts';
import type { SegmentDocument } from '../models/segment.ts';
import type { SegmentCondition } from '../schemas/segment.ts';
import type { Tags } from '../schemas/tags.ts';
import { countEvents } from '../events/count-events.ts';
import { isTagCondition } from './segment-conditions.ts';
import { tagConditionFilter } from './segment-filter.ts';
import { countPasses } from './event-condition-filter.ts';
import { deviceFilterTest, type DeviceFilter } from './oversized-filter.ts';

export interface SegmentSubject {
  projectId: string;
  deviceId: string;
  tags: Tags;
}

async function conditionHolds(deps: CountDeps, device: SegmentSubject, condition: SegmentCondition, now: Date) {
  if (isTagCondition(condition))
    return deviceFilterTest(tagConditionFilter(condition) as DeviceFilter)({ tags: device.tags });
  const count = await countEvents(deps, {
    projectId: device.projectId,
    deviceId: device.deviceId,
    type: condition.event,
    withinDays: condition.withinDays,
    where: condition.where,
    now,
  });
  return countPasses[condition.count.op](count, condition.count.value);
}

/**
 * Whether one device is in a segment, from its own document and its own event counts (countEvents for the device and
 * its user, as a send's segment counts them), never a read of the project's devices: the same meaning as the
 * segment's filter on devices, by the same operator semantics. Push subscription is not a condition here.
 */
export async function deviceInSegment(
  deps: CountDeps,
  device: SegmentSubject,
  segment: Pick<SegmentDocument, 'match' | 'conditions'>,
  now = new Date(),
): Promise<boolean> {
  if (segment.conditions.length === 0) return true;
  const holds = await Promise.all(segment.conditions.map((condition) => conditionHolds(deps, device, condition, now)));
  return segment.match === 'all' ? holds.every(Boolean) : holds.some(Boolean);
}
