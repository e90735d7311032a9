import { expect, it } from 'vitest';
import { deliveriesReached, expectEveryDeviceDelivered, useFaultHarness } from '../support/fault-harness.ts';
import { sendNotification } from '../support/delivery-harness.ts';
import { segmentAudience } from '../support/held-pushes.ts';

// Short locks, so that a killed worker's jobs are found stalled and handed on within seconds.
const harness = useFaultHarness({
  workerEnv: { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' },
});

it('kill -9 of the deliver worker during a throttled send: no device lost, repeats bounded by the call in flight', async () => {
  await harness.startWorker('send');
  const first = await harness.startWorker('deliver');
  const { project, tokens, segmentId } = await segmentAudience(harness, 300);
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'segment',
    targetIds: [segmentId],
    body: 'paced',
    throttlePerMinute: 1200,
  });
  await deliveriesReached(harness, 80);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  expect(harness.sandbox.deliveries().length).toBeLessThan(tokens.length);
  await harness.startWorker('deliver');
  // At 20 a second a gateway call carries 20 pushes, and the one batch has one call in flight.
  await expectEveryDeviceDelivered(harness, project, id, tokens, { maxDoubled: 20, timeoutMs: 90_000 });
}, 150_000);
