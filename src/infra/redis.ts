import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { StartUpError } from './start-up-error.ts';

/** One Redis server or a Redis Cluster: every command the product sends works on both (see redisKeys). */
export type RedisClient = Redis | Cluster;

/**
 * A Redis that is connected but does not answer (stopped, swapping, stuck on a slow disk) would hold every request
 * forever; past this a command fails and the request is a 503. Redis answers in well under a millisecond, and its
 * slowest routine pause, an append-only-file fsync, is about a second or two.
 */
export const redisCommandTimeoutMs = 5000;

const clusterSchemes: Record<string, 'redis:' | 'rediss:'> = {
  'redis-cluster:': 'redis:',
  'rediss-cluster:': 'rediss:',
};

export interface ClusterUrl {
  nodes: Array<{ host: string; port: number }>;
  options: Pick<RedisOptions, 'username' | 'password' | 'tls'>;
}

/**
 * REDIS_URL names one server (`redis://`, `rediss://`) or a cluster: `redis-cluster://` (`rediss-cluster://` for
 * TLS) followed by one or more of its nodes, comma separated, e.g. `redis-cluster://:secret@10.0.0.1:6379,10.0.0.2:6379`.
 * Any node will do: the client learns the others, and which slots each serves, from the first that answers.
 */
export function parseClusterUrl(url: string): ClusterUrl | null {
  const scheme = /^[a-z-]+:/i.exec(url)?.[0].toLowerCase();
  const serverScheme = scheme === undefined ? undefined : clusterSchemes[scheme];
  if (serverScheme === undefined) return null;
  const rest = url.slice(scheme!.length + 2);
  const at = rest.lastIndexOf('@');
  const credentials = at === -1 ? '' : rest.slice(0, at + 1);
  const hosts = (at === -1 ? rest : rest.slice(at + 1)).replace(/\/.*$/, '');
  const nodes = hosts.split(',').map((host) => {
    const parsed = new URL(`${serverScheme}//${host}`);
    return { host: parsed.hostname, port: Number(parsed.port || 6379) };
  });
  const first = new URL(`${serverScheme}//${credentials}${hosts.split(',')[0]}`);
  return {
    nodes,
    options: {
      ...(first.username !== '' && { username: decodeURIComponent(first.username) }),
      ...(first.password !== '' && { password: decodeURIComponent(first.password) }),
      ...(serverScheme === 'rediss:' && { tls: {} }),
    },
  };
}

function connect(url: string, options: RedisOptions, clusterOptions: ClusterOptions = {}): RedisClient {
  const cluster = parseClusterUrl(url);
  if (cluster === null) return new Redis(url, options);
  return new Cluster(cluster.nodes, { ...clusterOptions, redisOptions: { ...options, ...cluster.options } });
}

/**
 * Two kinds of connection: the ingress fails fast while Redis is away (nothing is accepted that is not durable),
 * while BullMQ workers must wait and reconnect forever, as BullMQ requires (maxRetriesPerRequest: null).
 */
export function createFailFastRedis(url: string): RedisClient {
  const retryStrategy = (attempt: number) => Math.min(attempt * 200, 2000);
  return connect(
    url,
    {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: redisCommandTimeoutMs,
      retryStrategy,
    },
    { enableOfflineQueue: false, clusterRetryStrategy: retryStrategy },
  );
}

export function createBlockingRedis(url: string): RedisClient {
  return connect(url, { maxRetriesPerRequest: null });
}

/**
 * Start-up waits for Redis once, boundedly: a fail-fast connection refuses commands until it is ready, and a blocking
 * one would wait for ever on a REDIS_URL that never answers.
 */
export async function waitForRedis(redis: RedisClient, timeoutMs = 5000): Promise<void> {
  if (redis.status === 'ready') return;
  // Each failed attempt while waiting is an error event: the StartUpError says it once, rather than a trace each.
  const quiet = () => undefined;
  redis.on('error', quiet);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      redis.disconnect();
      reject(new StartUpError(`Redis did not answer within ${timeoutMs} ms at ${describeRedis(redis)} (REDIS_URL)`));
    }, timeoutMs);
    function onReady() {
      clearTimeout(timer);
      redis.off('error', quiet);
      resolve();
    }
    redis.once('ready', onReady);
  });
}

function describeRedis(redis: RedisClient): string {
  if (redis instanceof Redis) return `${redis.options.host}:${redis.options.port}`;
  return `the Redis Cluster of REDIS_URL`;
}

/** The keys matching a SCAN pattern, found without blocking Redis: on a cluster, on each master in turn. */
export async function* scanKeys(redis: RedisClient, match: string): AsyncGenerator<string> {
  const servers = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const server of servers) {
    for await (const keys of server.scanStream({ match, count: 1000 }) as AsyncIterable<string[]>) yield* keys;
  }
}
