import { expect, it } from 'vitest';
import { expectDeliveredExactlyOnce, useFaultHarness } from '../support/fault-harness.ts';
import { sendNotification } from '../support/delivery-harness.ts';
import { allHeld, expectReceivedFrom, releaseMinute, segmentAudience } from '../support/held-pushes.ts';
import { patchSettings, utcClock } from '../support/timing.ts';

const minuteMs = 60_000;
// Short locks, so that a killed worker's jobs are found stalled and handed on within seconds.
const harness = useFaultHarness({
  ownRedis: true,
  workerEnv: { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' },
});

/*
 * Pushes held for a time wait in Redis, not in a worker: neither a deliver worker killed nor Redis restarted while
 * they wait loses or doubles one. Both sends are released at the same minute, so the test waits for one minute to
 * turn, not two.
 */
it('kill -9 of a deliver worker and a Redis restart while pushes wait for quiet hours or their local time: each device gets its push once, at its time', async () => {
  await harness.startWorker('send');
  const killed = await harness.startWorker('deliver');
  await harness.startWorker('deliver');
  const quiet = await segmentAudience(harness, 600);
  const local = await segmentAudience(harness, 600);
  const release = releaseMinute();
  await patchSettings(harness.ingress, quiet.project, {
    quietHours: { start: utcClock(release - 120 * minuteMs), end: utcClock(release) },
  });
  const quietId = await sendNotification(harness.ingress, quiet.project, {
    targetType: 'segment',
    targetIds: [quiet.segmentId],
    body: 'after the quiet',
  });
  const localId = await sendNotification(harness.ingress, local.project, {
    targetType: 'segment',
    targetIds: [local.segmentId],
    body: 'good morning',
    localTime: utcClock(release),
  });
  await allHeld(harness, quietId, quiet.tokens.length);
  await allHeld(harness, localId, local.tokens.length);

  killed.child.kill('SIGKILL');
  expect((await killed.exited).signal).toBe('SIGKILL');
  // The surviving deliver worker and the send worker reconnect to the restarted Redis and find the held parts there.
  await harness.redis!.stop();
  await harness.redis!.start();
  expect(harness.sandbox.deliveries()).toEqual([]);

  await expectDeliveredExactlyOnce(harness, quiet.project, quietId, quiet.tokens, 2 * minuteMs);
  await expectDeliveredExactlyOnce(harness, local.project, localId, local.tokens, 2 * minuteMs);
  expectReceivedFrom(harness, quiet.tokens, release);
  expectReceivedFrom(harness, local.tokens, release);
}, 180_000);
