import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { RedisClient } from './infra/redis.ts';
import { connectMongo } from './infra/mongo.ts';
import { createModels, type Models } from './models/index.ts';
import { ensureIndexes } from './models/ensure-indexes.ts';
import { closeQueues, createQueues, type Queues } from './queues/create-queues.ts';

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
}

/** MongoDB with its indexes in place, and the queues on the given Redis. */
export async function openDeps(config: Config, log: Logger, redis: RedisClient): Promise<Deps> {
  const mongo = await connectMongo(config.mongoUrl);
  const models = createModels(mongo);
  const queues = createQueues(redis, config);
  await ensureIndexes(models);
  return { config, log, mongo, redis, models, queues };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeQueues(deps.queues);
  deps.redis.disconnect();
  await deps.mongo.close();
}
