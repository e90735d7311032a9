/**
 * node tools/bench/sandbox-ceiling-client.ts --port <sandbox port> --pushes <n>
 * The ceiling's minimal client, in a process of its own so that its CPU is its alone (the sandbox runs in the bench's
 * process): the gateway adapters send n pushes in batches of 500 with as many in flight as a deliver worker runs, no
 * queue, no database. Prints one JSON line: pushes per second and the process's CPU milliseconds per push meanwhile.
 */
import { parseArgs } from 'node:util';
import { createSandboxGateways } from '../../src/gateways/sandbox-gateways.ts';
import type { OutgoingPush } from '../../src/gateways/gateway.ts';

const { values } = parseArgs({ options: { port: { type: 'string' }, pushes: { type: 'string' } } });
const pushes = Number(values.pushes);
const gateways = createSandboxGateways(Number(values.port));
const batchSize = 500;
const inFlight = 16;
let next = 0;

async function lane(): Promise<void> {
  while (next < pushes) {
    const first = next;
    next += batchSize;
    const platform = (first / batchSize) % 2 === 0 ? 'android' : 'ios';
    const batch: OutgoingPush[] = Array.from({ length: Math.min(batchSize, pushes - first) }, (_, offset) => ({
      token: `ceiling-${first + offset}`,
      platform,
      title: 'Hello',
      body: 'Ceiling',
      url: null,
      imageUrl: null,
      data: {},
      collapseId: 'ceiling',
    }));
    await gateways[platform === 'ios' ? 'apns' : 'fcm'].send(batch);
  }
}

const cpuBefore = process.cpuUsage();
const startedAt = performance.now();
await Promise.all(Array.from({ length: inFlight }, lane));
const seconds = (performance.now() - startedAt) / 1000;
const cpu = process.cpuUsage(cpuBefore);
await Promise.all([gateways.fcm.close(), gateways.apns.close()]);
const cpuMs = (cpu.user + cpu.system) / 1000;
process.stdout.write(
  `${JSON.stringify({ perSecond: Math.round(pushes / seconds), cpuMsPerPush: cpuMs / pushes, inFlight, batchSize })}\n`,
);
