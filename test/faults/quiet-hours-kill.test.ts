import { expect, it } from 'vitest';
import { expectDeliveredExactlyOnce, useFaultHarness } from '../support/fault-harness.ts';
import { sendNotification } from '../support/delivery-harness.ts';
import { allHeld, expectReceivedFrom, releaseMinute, segmentAudience } from '../support/held-pushes.ts';
import { patchSettings, utcClock } from '../support/timing.ts';

const minuteMs = 60_000;
// Short locks, so that a killed worker's jobs are found stalled and handed on within seconds.
const harness = useFaultHarness({
  workerEnv: { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' },
});

it('kill -9 of the deliver worker while pushes wait for quiet hours to end: each delivered once when they do', async () => {
  await harness.startWorker('send');
  const first = await harness.startWorker('deliver');
  const { project, tokens, segmentId } = await segmentAudience(harness, 600);
  const end = releaseMinute();
  await patchSettings(harness.ingress, project, {
    quietHours: { start: utcClock(end - 120 * minuteMs), end: utcClock(end) },
  });
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'segment',
    targetIds: [segmentId],
    body: 'after the quiet',
  });
  await allHeld(harness, id, tokens.length);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  expect(harness.sandbox.deliveries()).toEqual([]);
  await harness.startWorker('deliver');
  await expectDeliveredExactlyOnce(harness, project, id, tokens, 2 * minuteMs);
  expectReceivedFrom(harness, tokens, end);
}, 180_000);
