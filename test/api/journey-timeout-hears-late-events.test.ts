import { beforeAll, expect, it, onTestFinished } from 'vitest';
import { claimDueTravellers } from '../support/due-claims.ts';
import { type RunnerState, runClaimedSteps } from '../../src/journeys/run-claimed-steps.ts';
import { timeoutWaitMs } from '../../src/journeys/timeout-waits.ts';
import { queueNames } from '../../src/infra/queue-names.ts';
import { registerDevices, useDeliveryHarness } from '../support/delivery-harness.ts';
import { waitFor } from '../support/eventually.ts';
import { deviceEvent, journeyClient, listening } from '../support/journeys.ts';

// No journey-steps worker: the test runs the step runner's claims itself, and holds the event-ingest worker.
const {
  harness,
  projects: { project, other },
} = useDeliveryHarness({ queues: ['send', 'deliver', 'event-ingest'], projects: { project: 'team', other: 'team' } });
const clientOf = (owner: () => typeof project) => journeyClient(() => harness.ingress, owner);
const [journeys, otherJourneys] = [clientOf(() => project), clientOf(() => other)];
const context = () => harness.ingress.context;
const state: RunnerState = { defaultZone: async () => 'UTC', versions: new Map() };

const gatedJourney = {
  name: 'reported in time',
  entry: { event: 'started' },
  steps: [
    { id: 'gate', type: 'waitForEvent', event: 'reported', timeoutSeconds: 60, onEvent: 'heard', onTimeout: 'missed' },
    { id: 'heard', type: 'setTags', tags: { outcome: 'heard' }, next: 'exit' },
    { id: 'missed', type: 'setTags', tags: { outcome: 'missed' } },
  ],
};

beforeAll(async () => {
  await registerDevices(harness.ingress, project, [{ id: 'late-1', platform: 'android', token: 'tok-late-1' }]);
  await registerDevices(harness.ingress, other, [{ id: 'quiet-1', platform: 'android', token: 'tok-quiet-1' }]);
});

/** Claims and runs the due steps until nothing more is due, answering the journeys of the travellers it ran. */
async function runDue(): Promise<string[]> {
  const ran: string[] = [];
  for (;;) {
    const { claim, travellers } = await claimDueTravellers(context(), 0);
    if (travellers.length === 0) return ran;
    ran.push(...travellers.map((traveller) => traveller.journeyId));
    await runClaimedSteps(context(), state, claim, travellers);
  }
}

/** Reports late-1's awaited event with the event-ingest worker held (until the test ends): its job stays pending. */
async function reportWhileIngestionHeld() {
  const ingestWorker = harness.workers.workers.find((worker) => worker.name === queueNames.eventIngest)!;
  await ingestWorker.pause();
  onTestFinished(() => ingestWorker.resume());
  await journeys.report([deviceEvent('late-1', 'reported')]);
  const [pending] = await context().queues.eventIngest.getJobs(['waiting']);
  return { ingestWorker, pending: pending! };
}

/** The journeys' listening travellers time out at `at`, once the clock has passed it. */
async function endTimeoutsAt(at: Date, journeyIds: string[]) {
  await context().models.JourneyTraveller.updateMany({ journeyId: { $in: journeyIds } }, { $set: { dueAt: at } });
  await waitFor(
    async () => Date.now(),
    (now) => now > at.getTime(),
  );
}

const gateOutcome = async (client: typeof journeys, journeyId: string, deviceId: string) =>
  (await client.visits(journeyId, 'device', deviceId))[0].passed.find(
    (step: { stepId: string }) => step.stepId === 'gate',
  )?.outcome;

it("runs a waitForEvent timeout only once its project's events accepted before it are ingested, others' at once", async () => {
  const [journeyId, otherJourneyId] = [await journeys.create(gatedJourney), await otherJourneys.create(gatedJourney)];
  await journeys.report([deviceEvent('late-1', 'started')]);
  await otherJourneys.report([deviceEvent('quiet-1', 'started')]);
  await listening(context().models, journeyId, 'gate', ['late-1']);
  await listening(context().models, otherJourneyId, 'gate', ['quiet-1']);

  // The report is accepted while ingestion is behind, and both timeouts pass before it is ingested.
  const { ingestWorker, pending } = await reportWhileIngestionHeld();
  await endTimeoutsAt(new Date(pending.timestamp + 1), [journeyId, otherJourneyId]);

  // The other project, with nothing pending, does not wait for this one's backlog.
  expect(await runDue()).toEqual([otherJourneyId]);
  expect(await gateOutcome(otherJourneys, otherJourneyId, 'quiet-1')).toEqual({ timedOut: true });

  ingestWorker.resume();
  await waitFor(
    () => gateOutcome(journeys, journeyId, 'late-1'),
    (outcome) => outcome !== undefined,
  );
  expect(await gateOutcome(journeys, journeyId, 'late-1')).toEqual({ heard: 'reported' });
  expect(await runDue()).toEqual([journeyId]);
  const visit = (await journeys.visits(journeyId, 'device', 'late-1'))[0];
  expect(visit.passed.map((step: { stepId: string }) => step.stepId)).toEqual(['gate', 'heard']);
});

it('runs a timeout whose events wait in an ingestion lagging longer than the bound', async () => {
  const journeyId = await journeys.create({ ...gatedJourney, name: 'lagging', entry: { event: 'lag-started' } });
  await journeys.report([deviceEvent('late-1', 'lag-started')]);
  await listening(context().models, journeyId, 'gate', ['late-1']);
  const { pending } = await reportWhileIngestionHeld();
  const now = Date.now();

  // Accepted before the timeout, but more than timeoutWaitMs ago: the timeout no longer waits for it.
  await context().redis.hset(
    context().queues.eventIngest.toKey(pending.id!),
    'timestamp',
    now - timeoutWaitMs - 120_000,
  );
  await context().models.JourneyTraveller.updateOne(
    { journeyId },
    { $set: { dueAt: new Date(now - timeoutWaitMs - 60_000) } },
  );
  expect(await runDue()).toEqual([journeyId]);
  expect(await gateOutcome(journeys, journeyId, 'late-1')).toEqual({ timedOut: true });
});

it('does not hear an event accepted after the timeout, however soon it is ingested', async () => {
  const journeyId = await journeys.create({ ...gatedJourney, name: 'too late', entry: { event: 'late-started' } });
  await journeys.report([deviceEvent('late-1', 'late-started')]);
  await listening(context().models, journeyId, 'gate', ['late-1']);
  await endTimeoutsAt(new Date(Date.now() - 1000), [journeyId]);
  await journeys.report([deviceEvent('late-1', 'reported')]);
  // Ingested: the report's job is finished, and the traveller still listens, due at its timeout.
  await waitFor(
    () => context().queues.eventIngest.getJobCounts('waiting', 'active'),
    (counts) => (counts.waiting ?? 0) + (counts.active ?? 0) === 0,
  );
  expect(await gateOutcome(journeys, journeyId, 'late-1')).toBeUndefined();
  expect(await runDue()).toEqual([journeyId]);
  expect(await gateOutcome(journeys, journeyId, 'late-1')).toEqual({ timedOut: true });
});
