import type { Models } from '../models/index.ts';
import { deviceKey, type DeviceDocument } from '../models/device.ts';
import type { ListDevicesQuery } from '../schemas/device-list.ts';
import { newestFirst, newestFirstListing, type NewestFirstFilter } from '../models/newest-first-list.ts';
import type { PageBoundary } from '../infra/newest-first-page.ts';

type StoredDevice = DeviceDocument & { createdAt: Date };
type BrowseFilters = Pick<ListDevicesQuery, 'platform' | 'subscribed'>;

/** On the (projectId, createdAt, _id) index, with the platform and subscription state asked for. */
export const newestDevicesQuery = (models: Models, filter: NewestFirstFilter, query: BrowseFilters, count: number) =>
  models.Device.find({
    ...filter,
    ...(query.platform !== undefined && { platform: query.platform }),
    ...(query.subscribed !== undefined && { isSubscribed: query.subscribed }),
  })
    .sort(newestFirst)
    .limit(count)
    .lean<StoredDevice[]>();

/**
 * The project's devices newest first, filtered: the console's browse. Pages by the last device seen, as the other
 * newest-first lists do.
 */
export function newestDevicesListing(models: Models, query: BrowseFilters) {
  const listing = newestFirstListing<StoredDevice>((filter, count) => newestDevicesQuery(models, filter, query, count));
  return {
    list: (projectId: string, limit: number, before?: PageBoundary) => listing.list(projectId, limit, before),
    boundary: (projectId: string, deviceId: string) => listing.boundary(projectId, deviceKey(projectId, deviceId)),
  };
}
