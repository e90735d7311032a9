import { Redis } from 'ioredis';
import { findFreePort } from './free-port.ts';
import { startLocalRedis } from './redis-server.ts';
import type { StartedService } from './started-service.ts';

const SLOTS = 16384;
const READY_TIMEOUT_MS = 30_000;

export interface StartedRedisCluster extends StartedService {
  /** host:port of each master, in the order their slot ranges follow. */
  masters: string[];
}

/**
 * A Redis Cluster of local redis-server masters (no replicas) on free loopback ports, for the tests that prove the
 * product runs on one: each master takes an equal range of the 16384 slots, they meet, and the cluster is handed out
 * once every master reports it healthy. Its URL is the product's cluster form of REDIS_URL.
 */
export async function startLocalRedisCluster(options: {
  stateDir: string;
  log: (line: string) => void;
  masters: number;
}): Promise<StartedRedisCluster> {
  const nodes: StartedService[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    for (let index = 0; index < options.masters; index++) {
      // The cluster bus port defaults to the client port + 10000, which may be taken or past 65535.
      const busPort = await findFreePort();
      nodes.push(
        await startLocalRedis({ stateDir: options.stateDir, log: options.log, persistent: false }, [
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPort),
          '--cluster-node-timeout',
          '5000',
        ]),
      );
    }
    const clients = nodes.map((node) => new Redis(node.url, { maxRetriesPerRequest: 1 }));
    try {
      await formCluster(clients);
    } finally {
      for (const client of clients) client.disconnect();
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const masters = nodes.map((node) => node.url.replace('redis://', ''));
  options.log(`redis cluster: ${masters.length} masters on ${masters.join(', ')}`);
  return {
    url: `redis-cluster://${masters.join(',')}`,
    description: `local Redis Cluster of ${masters.length} masters`,
    pids: nodes.flatMap((node) => node.pids),
    masters,
    stop,
  };
}

async function formCluster(clients: Redis[]): Promise<void> {
  const perMaster = Math.ceil(SLOTS / clients.length);
  await Promise.all(
    clients.map((client, index) =>
      client.call(
        'CLUSTER',
        'ADDSLOTSRANGE',
        String(index * perMaster),
        String(Math.min(SLOTS, (index + 1) * perMaster) - 1),
      ),
    ),
  );
  const [first, ...others] = clients;
  for (const other of others) {
    const busPort = Number(await other.config('GET', 'cluster-port').then((pair) => (pair as string[])[1]));
    await first!.call('CLUSTER', 'MEET', '127.0.0.1', String(other.options.port), String(busPort));
  }
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (const client of clients) {
    for (;;) {
      const info = String(await client.call('CLUSTER', 'INFO'));
      if (/cluster_state:ok/.test(info) && new RegExp(`cluster_known_nodes:${clients.length}\\b`).test(info)) break;
      if (Date.now() > deadline)
        throw new Error(`the local Redis Cluster did not become healthy within ${READY_TIMEOUT_MS} ms:\n${info}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
