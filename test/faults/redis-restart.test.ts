import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliveriesReached, expectDeliveredExactlyOnce, seedSegmentAudience, sendToSegment, startFaultHarness, type FaultHarness } from '../support/fault-harness.ts';

const devices = 10_000;
let harness: FaultHarness;

beforeAll(async () => {
  // A job whose completion was lost with the connection stays "active" in the restarted Redis until its lock expires
  // and a stalled-job check hands it on: with the defaults (30 s lock, 30 s checks) that takes up to a minute, which
  // matches the occasional 64 s runs of this test.
  // Short ones test the same recovery in seconds.
  harness = await startFaultHarness({ ownRedis: true, workerEnv: { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' } });
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
