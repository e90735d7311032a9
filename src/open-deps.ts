import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import type { RedisClient } from './infra/redis.ts';
import { connectMongo } from './infra/mongo.ts';
import { createModels } from './models/index.ts';
import { ensureIndexes } from './models/ensure-indexes.ts';
import { upgradeLegacyJourneys } from './journeys/upgrade-legacy-journeys.ts';
import { closeQueues, createQueues } from './queues/create-queues.ts';
import { RenderPool } from './rendering/render-pool.ts';

/** MongoDB with its indexes in place, and the queues on the given Redis. */
export async function openDeps(config: Config, log: Logger, redis: RedisClient): Promise<Deps> {
  const mongo = await connectMongo(config.mongoUrl);
  const models = createModels(mongo);
  const queues = createQueues(redis, config);
  await ensureIndexes(models);
  await upgradeLegacyJourneys({ models, redis, config });
  const renderer = new RenderPool({ threads: config.renderThreads, timeoutMs: config.renderTimeoutMs });
  return { config, log, mongo, redis, models, queues, renderer };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeQueues(deps.queues);
  await deps.renderer.close();
  deps.redis.disconnect();
  await deps.mongo.close();
}
