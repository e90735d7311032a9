import type { Connection } from 'mongoose';
import type { RedisClient } from './infra/redis.ts';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createFailFastRedis, waitForRedis } from './infra/redis.ts';
import type { Models } from './models/index.ts';
import { openStorage } from './infra/open-storage.ts';
import { closeQueues, type Queues } from './queues/create-queues.ts';
import { KeyCache } from './keys/key-cache.ts';
import { SlidingWindowLimiter } from './rate-limit/sliding-window.ts';
import { DeviceStore } from './devices/device-store.ts';
import { TemplateStore } from './templates/template-store.ts';
import { SegmentStore } from './segments/segment-store.ts';
import { JourneyStore } from './journeys/journey-store.ts';
import { EventTypeCatalog } from './events/event-type-catalog.ts';

/** Everything a request handler needs, built once per ingress process. */
export interface AppContext {
  config: Config;
  mongo: Connection;
  redis: RedisClient;
  models: Models;
  queues: Queues;
  keyCache: KeyCache;
  limiter: SlidingWindowLimiter;
  devices: DeviceStore;
  templates: TemplateStore;
  segments: SegmentStore;
  journeys: JourneyStore;
  eventTypes: EventTypeCatalog;
}

export async function createAppContext(config: Config, log: Logger): Promise<AppContext> {
  const redis = createFailFastRedis(config.redisUrl);
  redis.on('error', (error) => log.warn({ err: error }, 'redis connection error'));
  await waitForRedis(redis);
  const { mongo, models, queues } = await openStorage(config, redis);
  const templates = new TemplateStore(models);
  return {
    config,
    mongo,
    redis,
    models,
    queues,
    keyCache: new KeyCache(redis, models, config.queuePrefix),
    limiter: new SlidingWindowLimiter(redis, config.queuePrefix),
    devices: new DeviceStore(models, queues.eventIngest),
    templates,
    segments: new SegmentStore({ models, redis, queuePrefix: config.queuePrefix }),
    journeys: new JourneyStore({ models, templates, sendQueue: queues.send, redis, queuePrefix: config.queuePrefix }),
    eventTypes: new EventTypeCatalog(models),
  };
}

export async function closeAppContext(context: AppContext): Promise<void> {
  await closeQueues(context.queues);
  context.redis.disconnect();
  await context.mongo.close();
}
