import { createSandboxGateways } from '../../src/gateways/sandbox-gateways.ts';
import type { OutgoingPush } from '../../src/gateways/gateway.ts';

/**
 * Pushes per second through the gateway adapters alone (no queue, no database), in batches of 500 with as many in
 * flight as a deliver worker runs, against the sandbox the product run used.
 */
export async function measureSandboxCeiling(sandboxPort: number, pushes: number): Promise<number> {
  const gateways = createSandboxGateways(sandboxPort);
  const batchSize = 500;
  const inFlight = 16;
  let next = 0;
  const startedAt = performance.now();
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
  await Promise.all(Array.from({ length: inFlight }, lane));
  const seconds = (performance.now() - startedAt) / 1000;
  await Promise.all([gateways.fcm.close(), gateways.apns.close()]);
  process.stderr.write(
    `[ceiling] sandbox gateways alone: ${Math.round(pushes / seconds)} pushes/s (${pushes} pushes, ${inFlight} batches of ${batchSize} in flight)\n`,
  );
  return Math.round(pushes / seconds);
}
