import { expect, it } from 'vitest';
import { maxRetryRounds, RetryRound } from '../../src/delivery/retry-rounds.ts';
import { expectEveryDeviceDelivered, startSegmentSend, useFaultHarness } from '../support/fault-harness.ts';

const devices = 10_000;
const harness = useFaultHarness({ sandbox: { failureRate: 0.3, seed: 7 } });

/** What the retry rounds of a batch wait in all, by the product's own schedule, with the sandbox's Retry-After of 1 s. */
const roundsWaitMs = Array.from({ length: maxRetryRounds }, (_, previous) => {
  const round = new RetryRound(previous);
  round.refused(['device'], 1000);
  return round.next()!.delayMs;
}).reduce((sum, delayMs) => sum + delayMs, 0);

// A device refused through every round of an attempt (0.3^11 each: one run in about 60) goes with its batch's next
// attempt, not counted failed; test/replay.test.ts proves that path.
it('the gateways answer 503 to 30% of pushes: short retry rounds deliver every device once, none counted failed, the rounds adding little more than their waits', async () => {
  const { project, tokens, id } = await startSegmentSend(harness, devices);
  const sentAt = Date.now();

  await expectEveryDeviceDelivered(harness, project, id, tokens, { timeoutMs: 240_000 });
  const completedAfter = Date.now() - sentAt;
  const refused = harness.sandbox.attempts().filter((attempt) => attempt.status === 503);
  const share = refused.length / harness.sandbox.attempts().length;
  expect(share).toBeGreaterThan(0.25);
  expect(share).toBeLessThan(0.35);
  expect(refused.some((attempt) => attempt.gateway === 'apns')).toBe(true);
  // Timed against this run's own pace rather than the clock (on a quiet machine about 20 s, under a minute; several
  // times that beside other work): by the time 70% of the devices had their push, the first round had reached every
  // device. The 30% left are a fraction of that work again, plus the rounds' waits; a round costing more than its wait
  // (a history scan per round, a sleep inside the gateway client) shows as a long tail past that.
  const times = harness.sandbox
    .deliveries()
    .map((delivery) => Date.parse(delivery.receivedAt))
    .sort((a, b) => a - b);
  const seventyPercentAfter = times[Math.floor(0.7 * devices)]! - sentAt;
  const pace = `70% delivered after ${seventyPercentAfter} ms, completed after ${completedAfter} ms`;
  expect(completedAfter, pace).toBeLessThanOrEqual(2 * seventyPercentAfter + roundsWaitMs);
}, 300_000);
