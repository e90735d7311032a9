import { expect, it } from 'vitest';
import { useFaultHarness } from '../support/fault-harness.ts';
import { expectEveryTravellerPushed, seedWaitingTravellers, travellersDone } from '../support/journey-faults.ts';

const travellers = 10_000;
// A short claim lease and lock, so that the killed worker's batch and job are taken over within seconds.
const harness = useFaultHarness({
  workerEnv: { JOURNEY_CLAIM_LEASE_MS: '5000', WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' },
});

/*
 * The step runner claims a batch, runs its step and moves the batch on: a worker killed anywhere in that leaves its
 * batch claimed until the lease passes, when the next worker runs the step again under the same run id. A push step's
 * notification id is made of it, so the rerun stores and queues nothing twice: no traveller lost, no push doubled.
 */
it('kill -9 of the journey-steps worker while 10,000 travellers wait: a new worker takes every one to the end, each push once', async () => {
  await harness.startWorker('send');
  await harness.startWorker('deliver');
  const first = await harness.startWorker('journey-steps');
  const seeded = await seedWaitingTravellers(harness.ingress, travellers, 2000);

  await travellersDone(harness, seeded.journeyId, 500);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  const { JourneyTraveller } = harness.ingress.context.models;
  expect(await JourneyTraveller.countDocuments({ journeyId: seeded.journeyId, state: 'done' })).toBeLessThan(
    travellers,
  );
  await harness.startWorker('journey-steps');

  await expectEveryTravellerPushed(harness, seeded);
}, 300_000);
