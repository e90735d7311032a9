import type { Deps } from '../deps.ts';
import type { GatewayProvider } from '../gateways/gateway.ts';
import { PreparedNotifications } from './prepared-notification.ts';
import { DeliveryRateLimiter } from './delivery-rate-limiter.ts';
import { ProjectSettingsCache } from '../projects/project-settings-cache.ts';

/** The deliver worker's deps: the only ones with push gateway clients. */
export type DeliverDeps = Pick<Deps, 'models' | 'redis' | 'config' | 'log' | 'queues' | 'renderer'> & {
  gateways: GatewayProvider;
};

/** What the runs of one deliver worker share: its deps, and caches that last from job to job. */
export interface DeliveryWorker {
  deps: DeliverDeps;
  notifications: PreparedNotifications;
  limiter: DeliveryRateLimiter;
  settings: ProjectSettingsCache;
}

/** What the runs of one process share. */
export function deliveryWorker(deps: DeliverDeps): DeliveryWorker {
  return {
    deps,
    notifications: new PreparedNotifications(deps.models),
    limiter: new DeliveryRateLimiter(deps),
    settings: new ProjectSettingsCache(deps.models),
  };
}
