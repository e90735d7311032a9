import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { RedisClient } from './infra/redis.ts';
import type { Models } from './models/index.ts';
import type { Queues } from './infra/queue-names.ts';
import type { RenderPool } from './rendering/render-pool.ts';

/**
 * What every process opens at start-up (openDeps) and hands, as the first argument, to whatever needs more than the
 * models. A function that needs little takes `Pick<Deps, ...>`, so a test passes only those; a process that holds more
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
