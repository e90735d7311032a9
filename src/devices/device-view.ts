import type { DeviceDocument } from '../models/device.ts';
import type { DeviceView, ServerDeviceView } from '../schemas/device.ts';

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

export function toServerDeviceView(
  device: Pick<DeviceDocument, 'deviceId' | 'userId' | 'tags' | 'isSubscribed' | 'language' | 'timezone'>,
): ServerDeviceView {
  return {
    ...toDeviceView(device),
    ...(device.language && { language: device.language }),
    ...(device.timezone && { timezone: device.timezone }),
  };
}
