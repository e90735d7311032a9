import type { Connection } from 'mongoose';
import type { RedisClient } from '../infra/redis.ts';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { createBlockingRedis } from '../infra/redis.ts';
import type { Models } from '../models/index.ts';
import { closeQueues, type Queues } from '../queues/create-queues.ts';
import { openStorage } from '../infra/open-storage.ts';
import { scheduleFlushEventCounts } from '../queues/maintenance.ts';
import type { GatewayProvider } from '../gateways/gateway.ts';
import { createGatewayProvider } from '../gateways/create-gateway-provider.ts';

/** What a worker process shares between its jobs. */
export interface WorkerContext {
  config: Config;
  log: Logger;
  mongo: Connection;
  /** Waits and reconnects while Redis is away, as BullMQ workers require. */
  redis: RedisClient;
  models: Models;
  queues: Queues;
  /** Push gateway clients, built on first use per project. */
  gateways: GatewayProvider;
}

export async function createWorkerContext(config: Config, log: Logger): Promise<WorkerContext> {
  const redis = createBlockingRedis(config.redisUrl);
  const { mongo, models, queues } = await openStorage(config, redis);
  await scheduleFlushEventCounts(queues.maintenance);
  return { config, log, mongo, redis, models, queues, gateways: createGatewayProvider(config, models) };
}

export async function closeWorkerContext(context: WorkerContext): Promise<void> {
  await context.gateways.close();
  await closeQueues(context.queues);
  context.redis.disconnect();
  await context.mongo.close();
}
