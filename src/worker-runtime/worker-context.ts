import type { Connection } from 'mongoose';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { connectMongo } from '../infra/mongo.ts';
import { createBlockingRedis } from '../infra/redis.ts';
import { createModels, type Models } from '../models/index.ts';
import { closeQueues, createQueues, type Queues } from '../queues/create-queues.ts';
import { ensureIndexes } from '../models/ensure-indexes.ts';
import { detectServerCapabilities } from '../models/server-capabilities.ts';
import { scheduleFlushEventCounts } from '../queues/maintenance-schedules.ts';
import type { GatewayProvider } from '../gateways/gateway.ts';
import { createGatewayProvider } from '../gateways/create-gateway-provider.ts';

/** What a worker process shares between its jobs. */
export interface WorkerContext {
  config: Config;
  log: Logger;
  mongo: Connection;
  /** Waits and reconnects while Redis is away, as BullMQ workers require. */
  redis: Redis;
  models: Models;
  queues: Queues;
  /** Push gateway clients, built on first use per project. */
  gateways: GatewayProvider;
}

export async function createWorkerContext(config: Config, log: Logger): Promise<WorkerContext> {
  const mongo = await connectMongo(config.mongoUrl);
  const redis = createBlockingRedis(config.redisUrl);
  const models = createModels(mongo);
  const queues = createQueues(redis, config);
  await ensureIndexes(models, await detectServerCapabilities(mongo), queues.maintenance, log);
  await scheduleFlushEventCounts(queues.maintenance);
  return { config, log, mongo, redis, models, queues, gateways: createGatewayProvider(config, models) };
}

export async function closeWorkerContext(context: WorkerContext): Promise<void> {
  await context.gateways.close();
  await closeQueues(context.queues);
  context.redis.disconnect();
  await context.mongo.close();
}
