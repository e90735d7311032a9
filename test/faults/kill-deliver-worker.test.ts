import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliveriesReached, expectDeliveredExactlyOnce, seedSegmentAudience, sendToSegment, startFaultHarness, type FaultHarness } from '../support/fault-harness.ts';

const devices = 10_000;
let harness: FaultHarness;

beforeAll(async () => {
  // A short lock, so that the killed worker's batches are found stalled and handed on within seconds.
  harness = await startFaultHarness({ workerEnv: { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' } });
});
afterAll(() => harness?.close());

it('kill -9 of the delivery worker during a segment send: a new worker finishes it, every device gets one push', async () => {
  await harness.startWorker('send');
  const first = await harness.startWorker('deliver');
  const { project, tokens } = await seedSegmentAudience(harness, devices);
  const id = await sendToSegment(harness, project);

  await deliveriesReached(harness, devices / 4);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  expect(harness.sandbox.deliveries().length).toBeLessThan(devices);
  await harness.startWorker('deliver');

  await expectDeliveredExactlyOnce(harness, project, id, tokens);
}, 150_000);
