import type { SendNotificationBody } from '../../../../src/schemas/notification.ts';
import type { SegmentPreview } from '../../../../src/schemas/segment.ts';
import type { DeviceListItem, DeviceSubscription } from '../../../../src/schemas/device-list.ts';
import { api, query } from '../../api.ts';

export type TargetType = SendNotificationBody['targetType'];

export const targetTypes: ReadonlyArray<readonly [TargetType, string]> = [
  ['segment', 'Segment'],
  ['userId', 'User id'],
  ['device', 'Device id'],
];

/** How many subscribed devices the audience holds now: what the send would target. */
export function audienceCount(base: string, targetType: TargetType, target: string): Promise<number> {
  if (targetType === 'segment')
    return api<SegmentPreview>('GET', `${base}/segments/${encodeURIComponent(target)}/preview`).then(
      (preview) => preview.count,
    );
  if (targetType === 'userId') {
    return api<DeviceListItem[]>('GET', `${base}/devices${query({ userId: target, limit: 500 })}`).then(
      (devices) => devices.filter((device) => device.isSubscribed).length,
    );
  }
  return api<DeviceSubscription>('GET', `${base}/devices/${encodeURIComponent(target)}/subscription`).then(
    (subscription) => (subscription.isSubscribed ? 1 : 0),
  );
}
