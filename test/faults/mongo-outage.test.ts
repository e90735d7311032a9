import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliveriesReached, expectDeliveredExactlyOnce, seedSegmentAudience, sendToSegment, startFaultHarness, type FaultHarness } from '../support/fault-harness.ts';

const devices = 10_000;
const outageMs = 10_000;
let harness: FaultHarness;

beforeAll(async () => {
  harness = await startFaultHarness({ ownMongo: true });
});
afterAll(() => harness?.close());

it('the MongoDB-wire server killed and away for 10 s during a segment send: delivery resumes, every device gets one push', async () => {
  await harness.startWorker('send');
  await harness.startWorker('deliver');
  const { project, tokens } = await seedSegmentAudience(harness, devices);
  const id = await sendToSegment(harness, project);

  // Killed (not stopped) at a known point, so the outage always falls in the middle of the send: pushes the gateway
  // accepted in the moment MongoDB went away have no history yet, and must not be sent again.
  await deliveriesReached(harness, 2_000);
  await harness.mongo!.kill();
  const atKill = harness.sandbox.deliveries().length;
  await new Promise((resolve) => setTimeout(resolve, outageMs));
  await harness.mongo!.start();
  expect(atKill).toBeLessThan(devices / 2);

  await expectDeliveredExactlyOnce(harness, project, id, tokens);
}, 150_000);
