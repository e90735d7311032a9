import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startMongoContainer, startRedisContainer } from './containers.ts';
import { checkDockerEngine } from './docker-engine.ts';
import { mongoBuildInfo } from './mongo-ping.ts';
import { redisAnswersPing } from './redis-ping.ts';
import { startLocalRedis } from './redis-server.ts';
import { secantusDbUrl, startLocalSecantusDb } from './secantusdb.ts';
import type { LocalServiceOptions, StartedService } from './started-service.ts';

export interface ProvidedServices {
  redisUrl: string;
  /** Server URL, possibly with options; name a database with withDatabase. */
  mongoUrl: string;
  /** What was used, e.g. "redis: local redis-server 7.0.15 on 127.0.0.1:41234; mongodb: local SecantusDB 0.7.0b3 on 127.0.0.1:41235". */
  path: string;
  /** Local child processes started for these services (empty for env URLs and containers). */
  pids: number[];
  /** Stops everything this call started and removes its data unless persistent; env URLs are left alone. */
  stop(): Promise<void>;
}

export interface ProvideServicesOptions {
  stateDir: string;
  log: (line: string) => void;
  /** Keep data between runs (Redis AOF on, data dirs kept). */
  persistent?: boolean;
  /** Fixed ports for local servers, so that other commands find them at their default URLs. */
  ports?: { redis?: number; mongodb?: number };
  /**
   * Use a server already answering on its port in `ports`, else on the default one (npm start); otherwise servers of
   * our own are started.
   */
  adoptRunning?: boolean;
}

interface ServiceRecipe {
  label: string;
  envName: string;
  defaultPort: number;
  /** The URL of a server already answering on the port, if one does. */
  findRunning: (port: number) => Promise<string | undefined>;
  startContainer: () => Promise<StartedService>;
  startLocal: (options: LocalServiceOptions) => Promise<StartedService>;
  localName: string;
}

const REDIS: ServiceRecipe = {
  label: 'redis',
  envName: 'REDIS_URL',
  defaultPort: 6379,
  findRunning: async (port) => ((await redisAnswersPing('127.0.0.1', port)) ? `redis://127.0.0.1:${port}` : undefined),
  startContainer: startRedisContainer,
  startLocal: startLocalRedis,
  localName: 'redis-server',
};

const MONGODB: ServiceRecipe = {
  label: 'mongodb',
  envName: 'MONGODB_URL',
  defaultPort: 27017,
  findRunning: findRunningMongo,
  startContainer: startMongoContainer,
  startLocal: startLocalSecantusDb,
  localName: 'SecantusDB',
};

/** A SecantusDB left running by npm start gets the same retryWrites=false as one started here. */
async function findRunningMongo(port: number): Promise<string | undefined> {
  const address = `127.0.0.1:${port}`;
  const buildInfo = await mongoBuildInfo(`mongodb://${address}`);
  if (buildInfo === undefined) return undefined;
  return buildInfo.secantusVersion !== undefined ? secantusDbUrl(address) : `mongodb://${address}`;
}

export const defaultRedisPort = REDIS.defaultPort;
export const defaultMongoPort = MONGODB.defaultPort;

/**
 * For each service independently: its env URL, else (for npm start) a server already answering on its port,
 * else a Docker container, else a local server on loopback. Tests and benchmarks never borrow a running server: their
 * figures and data must not depend on what else runs on the machine.
 */
export async function provideServices(options: ProvideServicesOptions): Promise<ProvidedServices> {
  const localOptions: LocalServiceOptions = {
    stateDir: resolve(options.stateDir),
    log: options.log,
    persistent: options.persistent ?? false,
  };
  await mkdir(localOptions.stateDir, { recursive: true });

  const adoptRunning = options.adoptRunning ?? false;
  let dockerCheck: ReturnType<typeof checkDockerEngine> | undefined;
  const checkDockerOnce = (): ReturnType<typeof checkDockerEngine> => (dockerCheck ??= checkDockerEngine());

  const [redis, mongodb] = await Promise.allSettled([
    provideService(REDIS, { ...localOptions, port: options.ports?.redis }, adoptRunning, checkDockerOnce),
    provideService(MONGODB, { ...localOptions, port: options.ports?.mongodb }, adoptRunning, checkDockerOnce),
  ]);
  if (redis.status === 'rejected' || mongodb.status === 'rejected') {
    // Do not leave the one that did start running.
    const started = [redis, mongodb].flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    await stopAll(started).catch((error: unknown) =>
      options.log(`services: cleanup after a failed start also failed: ${String(error)}`),
    );
    const errors = [redis, mongodb].flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    throw errors.length === 1
      ? errors[0]
      : new Error(errors.map((error) => String(error instanceof Error ? error.message : error)).join('\n\n'));
  }

  let stopping: Promise<void> | undefined;
  return {
    redisUrl: redis.value.url,
    mongoUrl: mongodb.value.url,
    path: `redis: ${redis.value.description}; mongodb: ${mongodb.value.description}`,
    pids: [...redis.value.pids, ...mongodb.value.pids],
    stop: () => (stopping ??= stopAll([redis.value, mongodb.value])),
  };
}

async function provideService(
  recipe: ServiceRecipe,
  options: LocalServiceOptions,
  adoptRunning: boolean,
  checkDocker: () => ReturnType<typeof checkDockerEngine>,
): Promise<StartedService> {
  const fromEnv = process.env[recipe.envName];
  if (fromEnv !== undefined && fromEnv !== '') {
    const description = `${recipe.envName} from the environment (${hidePassword(fromEnv)})`;
    options.log(`${recipe.label}: using ${description}`);
    return { url: fromEnv, description, pids: [], stop: async () => {} };
  }
  const running = adoptRunning ? await recipe.findRunning(options.port ?? recipe.defaultPort) : undefined;
  if (running !== undefined) {
    const description = `one already answering at ${running}`;
    options.log(`${recipe.label}: using ${description}`);
    return { url: running, description, pids: [], stop: async () => {} };
  }

  const docker = await checkDocker();
  if (docker.available) {
    options.log(`${recipe.label}: ${docker.reason} answers; starting a container with testcontainers`);
  } else {
    options.log(`${recipe.label}: no Docker engine (${docker.reason}); starting a local ${recipe.localName}`);
  }
  const startedAt = Date.now();
  const service = docker.available ? await recipe.startContainer() : await recipe.startLocal(options);
  options.log(`${recipe.label}: ${service.description}, ready after ${Date.now() - startedAt} ms`);
  return service;
}

async function stopAll(services: StartedService[]): Promise<void> {
  const results = await Promise.allSettled(services.map((service) => service.stop()));
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (failures.length > 0) throw new AggregateError(failures, 'stopping services failed');
}

function hidePassword(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}
