import { expect, it } from 'vitest';
import {
  deliveriesReached,
  expectDeliveredExactlyOnce,
  startSegmentSend,
  useFaultHarness,
} from '../support/fault-harness.ts';

const devices = 10_000;
const outageMs = 10_000;
const harness = useFaultHarness({ ownMongo: true });

it('the MongoDB-wire server killed and away for 10 s during a segment send: delivery resumes, every device gets one push', async () => {
  const { project, tokens, id } = await startSegmentSend(harness, devices);

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
