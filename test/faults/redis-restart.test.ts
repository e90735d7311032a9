import { expect, it } from 'vitest';
import {
  deliveriesReached,
  expectDeliveredExactlyOnce,
  startSegmentSend,
  useFaultHarness,
} from '../support/fault-harness.ts';

const devices = 10_000;
// A job whose completion was lost with the connection stays "active" in the restarted Redis until its lock expires
// and a stalled-job check hands it on: with the defaults (30 s lock, 30 s checks) that takes up to a minute, which
// matches the occasional 64 s runs of this test.
// Short ones test the same recovery in seconds.
const harness = useFaultHarness({
  ownRedis: true,
  workerEnv: { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' },
});

it('Redis restarted from its append-only file during a segment send: the send resumes, every device gets one push', async () => {
  const { project, tokens, id } = await startSegmentSend(harness, devices);

  await deliveriesReached(harness, 500);
  await harness.redis!.stop();
  const atStop = harness.sandbox.deliveries().length;
  await harness.redis!.start();
  expect(atStop).toBeLessThan(devices);

  await expectDeliveredExactlyOnce(harness, project, id, tokens);
}, 150_000);
