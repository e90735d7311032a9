import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createFailFastRedis, waitForRedis } from './infra/redis.ts';
import type { Deps } from './deps.ts';
import { openDeps } from './open-deps.ts';
import { KeyCache } from './keys/key-cache.ts';
import { SlidingWindowLimiter } from './rate-limit/sliding-window.ts';
import { DeviceStore } from './devices/device-store.ts';
import { TemplateStore } from './templates/template-store.ts';
import { SegmentStore } from './segments/segment-store.ts';
import { JourneyStore } from './journeys/journey-store.ts';
import { EventTypeCatalog } from './events/event-type-catalog.ts';
import { WebhookStore } from './webhooks/webhook-store.ts';

/** Everything a request handler needs, built once per ingress process: the deps and the ingress's own stores. */
export interface AppContext extends Deps {
  keyCache: KeyCache;
  limiter: SlidingWindowLimiter;
  devices: DeviceStore;
  templates: TemplateStore;
  segments: SegmentStore;
  journeys: JourneyStore;
  eventTypes: EventTypeCatalog;
  webhooks: WebhookStore;
}

export async function createAppContext(config: Config, log: Logger): Promise<AppContext> {
  const redis = createFailFastRedis(config.redisUrl);
  await waitForRedis(redis);
  redis.on('error', (error) => log.warn({ err: error }, 'redis connection error'));
  const deps = await openDeps(config, log, redis);
  const templates = new TemplateStore(deps.models, deps.renderer);
  return {
    ...deps,
    keyCache: new KeyCache(deps),
    limiter: new SlidingWindowLimiter(deps),
    devices: new DeviceStore(deps),
    templates,
    segments: new SegmentStore(deps),
    journeys: new JourneyStore({ ...deps, templates }),
    eventTypes: new EventTypeCatalog(deps.models),
    webhooks: new WebhookStore(deps),
  };
}
