import { runClientProcess } from './client-process.ts';
import type { Ceiling } from './database-ceilings.ts';
import { measureSandboxCeiling } from './sandbox-ceiling.ts';

export interface JointCeiling {
  /** Pushes (each with its history document) per second when both kinds of work share the machine. */
  perSecond: number;
  /** Seconds until the last push and the last history document were done. */
  seconds: number;
  sandboxPerSecond: number;
  historyPerSecond: number;
}

const historyClient = new URL('./history-ceiling-client.ts', import.meta.url);

const historyCeilingApart = (mongodbUrl: string, projectId: string, documents: number) =>
  runClientProcess<Ceiling>(historyClient, [
    '--mongodb-url',
    mongodbUrl,
    '--project',
    projectId,
    '--documents',
    String(documents),
  ]);

/**
 * The two ceilings' work at once, as a send does it: the minimal client's n pushes and n history documents inserted
 * raw (batches of 100, 16 in flight), each in a process of its own, started together on the same machine. Each
 * ceiling alone has the two cores to itself; a push of the product costs both, so this is the rate no send can beat
 * here, whatever the product does.
 */
export async function measureJointCeiling(
  sandboxPort: number,
  mongodbUrl: string,
  projectId: string,
  pushes: number,
): Promise<JointCeiling> {
  const startedAt = performance.now();
  const [sandbox, history] = await Promise.all([
    measureSandboxCeiling(sandboxPort, pushes),
    historyCeilingApart(mongodbUrl, projectId, pushes),
  ]);
  const seconds = (performance.now() - startedAt) / 1000;
  const joint = {
    perSecond: Math.round(pushes / seconds),
    seconds: Number(seconds.toFixed(2)),
    sandboxPerSecond: sandbox.perSecond,
    historyPerSecond: history.perSecond,
  };
  process.stderr.write(
    `[ceiling] both at once: ${joint.perSecond} pushes with their history/s (${pushes} in ${joint.seconds} s; sandbox side ${joint.sandboxPerSecond}/s, history side ${joint.historyPerSecond}/s)\n`,
  );
  return joint;
}
