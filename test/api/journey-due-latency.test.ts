import { expect, it } from 'vitest';
import { deviceKey } from '../../src/models/device.ts';
import { travellerId } from '../../src/models/journey-traveller.ts';
import { eventually } from '../support/eventually.ts';
import { pushStep, useJourneyHarness } from '../support/journeys.ts';

const { harness, project, journeys } = useJourneyHarness();
const models = () => harness.ingress.context.models;
const travellers = 1000;

/**
 * CONTRACTS §18: a step runs within 10 s of its due time, for every traveller due at once. The travellers are seeded at
 * the push step after their wait, due in two seconds; each one's passed step records when its step ran.
 */
it('1,000 travellers due at once all take their next step within 10 s of their time', async () => {
  const id = await journeys.create({
    name: 'Due at once',
    entry: { event: 'due-at-once' },
    steps: [{ id: 'pause', type: 'wait', seconds: 60 }, pushStep('hello', 'Hello')],
  });
  const { projectId } = project;
  const now = new Date();
  await models().Device.insertMany(
    Array.from({ length: travellers }, (_, index) => ({
      _id: deviceKey(projectId, `late-${index}`),
      projectId,
      deviceId: `late-${index}`,
      platform: 'android',
      pushToken: `late-token-${index}`,
      isSubscribed: true,
      createdAt: now,
      updatedAt: now,
    })),
  );
  const dueAt = new Date(Date.now() + 2000);
  await models().JourneyTraveller.insertMany(
    Array.from({ length: travellers }, (_, index) => ({
      _id: travellerId(id, 'device', `late-${index}`, 1),
      projectId,
      journeyId: id,
      version: 1,
      subjectType: 'device',
      subjectId: `late-${index}`,
      visit: 1,
      entryEvent: { type: 'due-at-once', data: {} },
      entryEventId: `seeded:${index}`,
      enteredAt: now,
      state: 'due',
      at: 'hello',
      dueAt,
      waitingIn: 'pause',
    })),
  );
  await eventually(
    async () =>
      expect(await models().JourneyTraveller.countDocuments({ journeyId: id, state: 'done' })).toBe(travellers),
    60_000,
    200,
  );
  const allRecorded = Date.now() - dueAt.getTime();
  const done = await models().JourneyTraveller.find({ journeyId: id }, { passed: 1 }).lean();
  const lateness = done.map((traveller) => traveller.passed[0]!.at.getTime() - dueAt.getTime()).sort((a, b) => a - b);
  const summary = `lateness ms: median ${lateness[travellers / 2]}, max ${lateness.at(-1)}; all recorded after ${allRecorded}`;
  expect(lateness.at(-1), summary).toBeLessThanOrEqual(10_000);
  expect(lateness[0], summary).toBeGreaterThanOrEqual(0);
}, 120_000);
