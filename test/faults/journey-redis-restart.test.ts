import { expect, it } from 'vitest';
import { useFaultHarness } from '../support/fault-harness.ts';
import { expectEveryTravellerPushed, seedWaitingTravellers, travellersDone } from '../support/journey-faults.ts';

const travellers = 2000;
// A job whose completion was lost with the connection is handed on by the stalled-job check: short ones do it in seconds.
const harness = useFaultHarness({
  ownRedis: true,
  workerEnv: { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' },
});

/*
 * Nothing of a waiting traveller lives in Redis (its record in MongoDB holds its step and due time), and the scheduled
 * step runs and the push step's send jobs come back from the append-only file: travellers due before, during and after
 * the restart all reach the end, each push sent once.
 */
it('Redis restarted from its append-only file while travellers wait: every traveller reaches the end, each push once', async () => {
  await harness.startWorker('send');
  await harness.startWorker('deliver');
  await harness.startWorker('journey-steps');
  const seeded = await seedWaitingTravellers(harness.ingress, travellers, 2000);

  await travellersDone(harness, seeded.journeyId, 200);
  await harness.redis!.stop();
  const { JourneyTraveller } = harness.ingress.context.models;
  expect(await JourneyTraveller.countDocuments({ journeyId: seeded.journeyId, state: 'done' })).toBeLessThan(
    travellers,
  );
  await harness.redis!.start();

  await expectEveryTravellerPushed(harness, seeded);
}, 300_000);
