import { expect, it, onTestFinished } from 'vitest';
import { expectDeliveredExactlyOnce, useFaultHarness } from '../support/fault-harness.ts';
import { sendNotification } from '../support/delivery-harness.ts';
import { allHeld, expectReceivedFrom, releaseMinute, segmentAudience } from '../support/held-pushes.ts';
import { patchSettings, utcClock } from '../support/timing.ts';
import { aheadForATurnIn, clockAheadEnv, moveClockAhead } from '../support/clock-ahead.ts';

const minuteMs = 60_000;
// Short locks, so that a killed worker's jobs are found stalled and handed on within seconds.
const workerEnv: Record<string, string> = { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' };
const harness = useFaultHarness({ ownRedis: true, workerEnv });

/*
 * Pushes held for a time wait in Redis, not in a worker: neither a deliver worker killed nor Redis restarted while
 * they wait loses or doubles one. Both sends are released at the same minute, so the test waits for one minute to
 * turn, not two; and every clock of the installation is moved ahead together (the ingress and the sandbox in this process,
 * the workers started with the same move), so that the minute turns seconds after the set-up rather than up to a minute.
 */
it('kill -9 of a deliver worker and a Redis restart while pushes wait for quiet hours or their local time: each device gets its push once, at its time', async () => {
  const quiet = await segmentAudience(harness, 600);
  const local = await segmentAudience(harness, 600);
  // The workers start in seconds; the release minute is the next one at least 20 s after that: this one as a rule, the
  // next on a machine too loaded to start them in 10 s.
  const ahead = aheadForATurnIn(30_000);
  Object.assign(workerEnv, clockAheadEnv(ahead));
  onTestFinished(moveClockAhead(ahead));
  const [, killed] = await Promise.all([
    harness.startWorker('send'),
    harness.startWorker('deliver'),
    harness.startWorker('deliver'),
  ]);
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
