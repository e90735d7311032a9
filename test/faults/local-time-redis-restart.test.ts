import { it } from 'vitest';
import { expectDeliveredExactlyOnce, useFaultHarness } from '../support/fault-harness.ts';
import { sendNotification } from '../support/delivery-harness.ts';
import { allHeld, expectReceivedFrom, releaseMinute, segmentAudience } from '../support/held-pushes.ts';
import { utcClock } from '../support/timing.ts';

const minuteMs = 60_000;
// Short locks, so that a killed worker's jobs are found stalled and handed on within seconds.
const harness = useFaultHarness({
  ownRedis: true,
  workerEnv: { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' },
});

it('Redis restarted while a local-time send waits: every device gets it once, at its time', async () => {
  await harness.startWorker('send');
  await harness.startWorker('deliver');
  const { project, tokens, segmentId } = await segmentAudience(harness, 600);
  const at = releaseMinute();
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'segment',
    targetIds: [segmentId],
    body: 'good morning',
    localTime: utcClock(at),
  });
  await allHeld(harness, id, tokens.length);
  await harness.redis!.stop();
  await harness.redis!.start();
  await expectDeliveredExactlyOnce(harness, project, id, tokens, 2 * minuteMs);
  expectReceivedFrom(harness, tokens, at);
}, 180_000);
