import { runClientProcess } from './client-process.ts';

export interface SandboxCeiling {
  /** Pushes per second through the gateway adapters alone. */
  perSecond: number;
  /** The minimal client's CPU per push (user + system), in ms: what delivering costs with nothing around it. */
  cpuMsPerPush: number;
}

const client = new URL('./sandbox-ceiling-client.ts', import.meta.url);

/**
 * The gateway adapters alone (no queue, no database) against the sandbox the product run used, in a process of their
 * own (sandbox-ceiling-client.ts) so that their CPU can be read as the deliver worker's is.
 */
export async function measureSandboxCeiling(sandboxPort: number, pushes: number): Promise<SandboxCeiling> {
  const measured = await runClientProcess<SandboxCeiling & { inFlight: number; batchSize: number }>(client, [
    '--port',
    String(sandboxPort),
    '--pushes',
    String(pushes),
  ]);
  process.stderr.write(
    `[ceiling] sandbox gateways alone: ${measured.perSecond} pushes/s, ${measured.cpuMsPerPush.toFixed(3)} ms CPU a push (${pushes} pushes, ${measured.inFlight} batches of ${measured.batchSize} in flight)\n`,
  );
  return { perSecond: measured.perSecond, cpuMsPerPush: Number(measured.cpuMsPerPush.toFixed(3)) };
}
