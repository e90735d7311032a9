import { expect, it } from 'vitest';
import { useFaultHarness } from '../support/fault-harness.ts';
import { eventually } from '../support/eventually.ts';
import { expectEveryTravellerPushed, seedWaitingTravellers } from '../support/journey-faults.ts';

const travellers = 1000;
const harness = useFaultHarness({
  workerEnv: { JOURNEY_CLAIM_LEASE_MS: '5000', WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' },
});

/*
 * Killed the moment its push step's first notification is stored, the worker has made the batch's send but not yet
 * moved the batch on: the next claim runs the step again under the same run id, finds the notification made and
 * queues nothing again.
 */
it('kill -9 of the journey-steps worker while a push step is being sent: every traveller reaches the end, each push once', async () => {
  await harness.startWorker('send');
  await harness.startWorker('deliver');
  const first = await harness.startWorker('journey-steps');
  const seeded = await seedWaitingTravellers(harness.ingress, travellers, 1000);
  const { Notification, JourneyTraveller } = harness.ingress.context.models;

  await eventually(
    async () => expect(await Notification.countDocuments({ journeyId: seeded.journeyId })).toBeGreaterThan(0),
    60_000,
    5,
  );
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  expect(await JourneyTraveller.countDocuments({ journeyId: seeded.journeyId, state: 'done' })).toBeLessThan(
    travellers,
  );
  await harness.startWorker('journey-steps');

  await expectEveryTravellerPushed(harness, seeded);
}, 300_000);
