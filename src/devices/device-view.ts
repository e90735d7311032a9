import type { DeviceDocument } from '../models/device.ts';
import type { DeviceView } from '../schemas/device.ts';

export function toDeviceView(
  device: Pick<DeviceDocument, 'deviceId' | 'userId' | 'tags' | 'isSubscribed'>,
): DeviceView {
  return {
    id: device.deviceId,
    userId: device.userId ?? null,
    tags: device.tags ?? {},
    isSubscribed: device.isSubscribed ?? true,
  };
}
