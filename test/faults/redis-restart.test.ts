import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliveriesReached, expectDeliveredExactlyOnce, seedSegmentAudience, sendToSegment, startFaultHarness, type FaultHarness } from '../support/fault-harness.ts';

const devices = 10_000;
let harness: FaultHarness;

beforeAll(async () => {
  harness = await startFaultHarness({ ownRedis: true });
});
afterAll(() => harness?.close());

it('Redis restarted from its append-only file during a segment send: the send resumes, every device gets one push', async () => {
  await harness.startWorker('send');
  await harness.startWorker('deliver');
  const { project, tokens } = await seedSegmentAudience(harness, devices);
  const id = await sendToSegment(harness, project);

  await deliveriesReached(harness, 500);
  await harness.redis!.stop();
  const atStop = harness.sandbox.deliveries().length;
  await harness.redis!.start();
  expect(atStop).toBeLessThan(devices);

  await expectDeliveredExactlyOnce(harness, project, id, tokens);
}, 150_000);
