import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { RedisClient } from './infra/redis.ts';
import { connectMongo } from './infra/mongo.ts';
import { createModels, type Models } from './models/index.ts';
import { ensureIndexes } from './models/ensure-indexes.ts';
import { closeQueues, createQueues, type Queues } from './queues/create-queues.ts';
import { RenderPool } from './rendering/render-pool.ts';

/**
 * What every process opens at start-up and hands, as the first argument, to whatever needs more than the models.
 * A function that needs little takes `Pick<Deps, ...>`, so a test passes only those; a process that holds more
 * extends it (the ingress's AppContext, the deliver worker's gateways).
 */
export interface Deps {
  config: Config;
  log: Logger;
  mongo: Connection;
  /** The ingress's fails fast while Redis is away; a worker's waits and reconnects, as BullMQ workers require. */
  redis: RedisClient;
  models: Models;
  queues: Queues;
  /** Every Liquid render of the process, off its event loop and bounded in time. */
  renderer: RenderPool;
}

/** MongoDB with its indexes in place, and the queues on the given Redis. */
export async function openDeps(config: Config, log: Logger, redis: RedisClient): Promise<Deps> {
  const mongo = await connectMongo(config.mongoUrl);
  const models = createModels(mongo);
  const queues = createQueues(redis, config);
  await ensureIndexes(models);
  const renderer = new RenderPool({ threads: config.renderThreads, timeoutMs: config.renderTimeoutMs });
  return { config, log, mongo, redis, models, queues, renderer };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeQueues(deps.queues);
  await deps.renderer.close();
  deps.redis.disconnect();
  await deps.mongo.close();
}
