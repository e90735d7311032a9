import { expect, it } from 'vitest';
import { expectEveryDeviceDelivered, startSegmentSend, useFaultHarness } from '../support/fault-harness.ts';

const devices = 10_000;
const harness = useFaultHarness({ sandbox: { failureRate: 0.3, seed: 7 } });

// A device refused through every round of an attempt (0.3^11 each: one run in about 60) goes with its batch's next
// attempt, not counted failed; test/replay.test.ts proves that path.
it('the gateways answer 503 to 30% of pushes: short retry rounds deliver every device once within a minute, none counted failed', async () => {
  const { project, tokens, id } = await startSegmentSend(harness, devices);

  await expectEveryDeviceDelivered(harness, project, id, tokens, { timeoutMs: 60_000 });
  const refused = harness.sandbox.attempts().filter((attempt) => attempt.status === 503);
  const share = refused.length / harness.sandbox.attempts().length;
  expect(share).toBeGreaterThan(0.25);
  expect(share).toBeLessThan(0.35);
  expect(refused.some((attempt) => attempt.gateway === 'apns')).toBe(true);
}, 90_000);
