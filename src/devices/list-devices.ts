import type { Models } from '../models/index.ts';
import { deviceKey, type DeviceDocument } from '../models/device.ts';
import type { DeviceListItem, DeviceSubscription, ListDevicesQuery } from '../schemas/device-list.ts';
import { toServerDeviceView } from './device-view.ts';
import { newestDevicesListing } from './newest-devices.ts';
import type { PageBoundary } from '../infra/newest-first-page.ts';

type SubscriptionFields = Pick<DeviceDocument, 'isSubscribed' | 'unsubscribedAt' | 'unsubscribeReason'>;

export function toDeviceSubscription(device: SubscriptionFields): DeviceSubscription {
  return {
    isSubscribed: device.isSubscribed ?? true,
    unsubscribedAt: device.unsubscribedAt?.toISOString() ?? null,
    reason: device.unsubscribeReason ?? null,
  };
}

/** A tag value from a query string: tags hold strings and numbers, so "42" matches either. */
function tagValueFilter(value: string | undefined): object {
  if (value === undefined) return { $exists: true };
  const number = Number(value);
  return value.trim() !== '' && Number.isFinite(number) ? { $in: [value, number] } : { $eq: value };
}

/** Resuming after a device id and/or within the ids starting with a prefix: one range of the _id index. */
function idRange(projectId: string, { after, idPrefix }: ListDevicesQuery): object {
  const range: { $gt?: string; $gte?: string; $lt?: string } = {};
  if (idPrefix !== undefined) {
    range.$gte = deviceKey(projectId, idPrefix);
    // Past every id character (all ASCII) that can follow the prefix.
    range.$lt = deviceKey(projectId, `${idPrefix}\u007f`);
  }
  if (after !== undefined && (range.$gte === undefined || deviceKey(projectId, after) >= range.$gte)) {
    delete range.$gte;
    range.$gt = deviceKey(projectId, after);
  }
  return Object.keys(range).length === 0 ? {} : { _id: range };
}

/**
 * In _id order (the project's devices are contiguous there), resuming after the last device id seen, within an id prefix; a userId is
 * served by {projectId, userId}, a tag by the wildcard tag index.
 */
export function listDevicesQuery(models: Models, projectId: string, query: ListDevicesQuery) {
  return models.Device.find({
    projectId,
    ...(query.userId !== undefined && { userId: query.userId }),
    ...(query.tag !== undefined && { [`tags.${query.tag}`]: tagValueFilter(query.value) }),
    ...idRange(projectId, query),
  })
    .sort({ _id: 1 })
    .limit(query.limit)
    .lean<DeviceDocument[]>();
}

export async function listDevices(
  models: Models,
  projectId: string,
  query: ListDevicesQuery,
  before?: PageBoundary,
): Promise<DeviceListItem[]> {
  const devices =
    query.order === 'newest'
      ? await newestDevicesListing(models, query).list(projectId, query.limit, before)
      : await listDevicesQuery(models, projectId, query);
  return devices.map((device) => ({
    ...toServerDeviceView(device),
    platform: device.platform,
    subscription: toDeviceSubscription(device),
  }));
}
