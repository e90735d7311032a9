import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectDeliveredExactlyOnce, seedSegmentAudience, sendToSegment, startFaultHarness, type FaultHarness } from '../support/fault-harness.ts';

const devices = 10_000;
let harness: FaultHarness;

beforeAll(async () => {
  harness = await startFaultHarness({ sandbox: { failureRate: 0.3, seed: 7 } });
});
afterAll(() => harness?.close());

it('the gateways answer 503 to 30% of pushes: short retry rounds of the pipeline deliver every device once, within a minute', async () => {
  await harness.startWorker('send');
  await harness.startWorker('deliver');
  const { project, tokens } = await seedSegmentAudience(harness, devices);
  const id = await sendToSegment(harness, project);

  await expectDeliveredExactlyOnce(harness, project, id, tokens, 60_000);
  const refused = harness.sandbox.attempts().filter((attempt) => attempt.status === 503);
  const share = refused.length / harness.sandbox.attempts().length;
  expect(share).toBeGreaterThan(0.25);
  expect(share).toBeLessThan(0.35);
  expect(refused.some((attempt) => attempt.gateway === 'apns')).toBe(true);
}, 90_000);
