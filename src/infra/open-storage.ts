import type { Connection } from 'mongoose';
import type { RedisClient } from './redis.ts';
import type { Config } from '../config.ts';
import { connectMongo } from './mongo.ts';
import { createModels, type Models } from '../models/index.ts';
import { createQueues, type Queues } from '../queues/create-queues.ts';
import { ensureIndexes } from '../models/ensure-indexes.ts';
import { retireHistoryPurge } from '../queues/maintenance.ts';

export interface Storage {
  mongo: Connection;
  models: Models;
  queues: Queues;
}

/** MongoDB with its indexes in place, and the queues on the given Redis: what every process opens at start-up. */
export async function openStorage(config: Config, redis: RedisClient): Promise<Storage> {
  const mongo = await connectMongo(config.mongoUrl);
  const models = createModels(mongo);
  const queues = createQueues(redis, config);
  await ensureIndexes(models);
  await retireHistoryPurge(queues.maintenance);
  return { mongo, models, queues };
}
