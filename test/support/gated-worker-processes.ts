import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Config } from '../../src/config.ts';
import { processEnv, startWorkerProcess, type NodeProcess } from './child-processes.ts';
import { startMongoGate, type MongoGate } from './mongo-gate.ts';

export interface WorkerProcessOptions {
  /** Reach MongoDB directly rather than through the gate. */
  direct?: boolean;
  env?: Record<string, string>;
}

/**
 * Worker processes a test starts, reaching MongoDB through a gate that can hold them at one write. Their locks are
 * short, so that the jobs of a worker killed by the test are recovered within it. After each test its held writes are
 * released, so that its processes can shut down, and they are stopped.
 */
export function useWorkerProcesses(harness: { config: Config }) {
  let gate: MongoGate;
  const running: NodeProcess[] = [];
  beforeAll(async () => {
    gate = await startMongoGate(harness.config.mongoUrl);
  });
  afterEach(async () => {
    gate.release();
    await Promise.all(running.splice(0).map((worker) => worker.stop()));
  });
  afterAll(() => gate?.close());

  return {
    gate: () => gate,
    async start(queue: string, { direct = false, env = {} }: WorkerProcessOptions = {}): Promise<NodeProcess> {
      const worker = await startWorkerProcess(
        queue,
        processEnv(harness.config, {
          MONGODB_URL: direct ? harness.config.mongoUrl : gate.url,
          WORKER_LOCK_DURATION_MS: '1500',
          WORKER_STALLED_INTERVAL_MS: '300',
          ...env,
        }),
      );
      running.push(worker);
      return worker;
    },
  };
}
