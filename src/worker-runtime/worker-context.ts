import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { createBlockingRedis } from '../infra/redis.ts';
import { closeDeps, openDeps, type Deps } from '../deps.ts';
import { scheduleFlushEventCounts } from '../queues/maintenance.ts';
import type { GatewayProvider } from '../gateways/gateway.ts';
import { createGatewayProvider } from '../gateways/create-gateway-provider.ts';

/** What a worker process shares between its jobs. */
export interface WorkerContext extends Deps {
  /** Push gateway clients, built on first use per project. */
  gateways: GatewayProvider;
}

export async function createWorkerContext(config: Config, log: Logger): Promise<WorkerContext> {
  const deps = await openDeps(config, log, createBlockingRedis(config.redisUrl));
  await scheduleFlushEventCounts(deps.queues.maintenance);
  return { ...deps, gateways: createGatewayProvider(config, deps.models) };
}

export async function closeWorkerContext(context: WorkerContext): Promise<void> {
  await context.gateways.close();
  await closeDeps(context);
}
