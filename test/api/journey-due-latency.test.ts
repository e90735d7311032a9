import { expect, it } from 'vitest';
import { eventually, waitFor } from '../support/eventually.ts';
import { deviceEvent, useJourneyHarness } from '../support/journeys.ts';
import { seedWaitingTravellers } from '../support/journey-faults.ts';
import { countKeys, flushIdField } from '../../src/infra/gathered-counts.ts';
import { countField, eventCounts } from '../../src/events/pending-counts.ts';

const { harness, project, journeys } = useJourneyHarness();
const models = () => harness.ingress.context.models;
const travellers = 1000;

/**
 * CONTRACTS §18: a step runs within 10 s of its due time, for every traveller due at once. The travellers are seeded at
 * the push step after their wait, due in two seconds; each one's passed step records when its step ran.
 */
it('1,000 travellers due at once all take their next step within 10 s of their time', async () => {
  const { journeyId, dueAt } = await seedWaitingTravellers(harness.ingress, travellers, 2000);
  await eventually(
    async () => expect(await models().JourneyTraveller.countDocuments({ journeyId, state: 'done' })).toBe(travellers),
    60_000,
    200,
  );
  const allRecorded = Date.now() - dueAt.getTime();
  const done = await models().JourneyTraveller.find({ journeyId }, { passed: 1 }).lean();
  const lateness = done.map((traveller) => traveller.passed[0]!.at.getTime() - dueAt.getTime()).sort((a, b) => a - b);
  const summary = `lateness ms: median ${lateness[travellers / 2]}, max ${lateness.at(-1)}; all recorded after ${allRecorded}`;
  expect(lateness.at(-1), summary).toBeLessThanOrEqual(10_000);
  expect(lateness[0], summary).toBeGreaterThanOrEqual(0);
}, 120_000);

it("a subject enters its journey without waiting for the event counts' flush that its event made due", async () => {
  const deps = harness.ingress.context;
  const journeyId = await journeys.create({
    name: 'Entry before the flush',
    entry: { event: 'flush-entry' },
    steps: [{ id: 'pause', type: 'wait', seconds: 3600 }],
  });
  // A flush left half done by a flusher that died: the next flush writes its 3,000 counts first, for a second or more.
  const names = countKeys(deps, eventCounts, project.projectId);
  const field = (index: number) =>
    countField({ subjectType: 'user', subjectId: `planted-${index}`, type: 'planted', day: 0 });
  const planted = Object.fromEntries(Array.from({ length: 3000 }, (_, index) => [field(index), '1']));
  await deps.redis.hset(names.flushing, { ...planted, [flushIdField]: '1000000' });
  await deps.redis.del(names.flushGate);
  const plantedStored = () =>
    deps.models.EventCounter.countDocuments({ projectId: project.projectId, type: 'planted' });
  await journeys.report([deviceEvent('flush-entry-phone', 'flush-entry')]);
  await waitFor(
    () => journeys.visits(journeyId, 'device', 'flush-entry-phone'),
    (visits) => visits.length === 1,
  );
  expect(await plantedStored()).toBeLessThan(3000);
  await waitFor(plantedStored, (stored) => stored === 3000);
});
