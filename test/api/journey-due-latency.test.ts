import { expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { useJourneyHarness } from '../support/journeys.ts';
import { seedWaitingTravellers } from '../support/journey-faults.ts';

const { harness } = useJourneyHarness();
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
