import { expect } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { deviceKey } from '../../src/models/device.ts';
import { travellerId } from '../../src/models/journey-traveller.ts';
import type { FaultHarness } from './fault-harness.ts';
import type { TestIngress } from './ingress.ts';
import { eventually } from './eventually.ts';
import { describeUnpushed } from './unpushed-travellers.ts';
import { journeyClient, pushStep } from './journeys.ts';

export interface WaitingTravellers {
  project: CreatedProject;
  journeyId: string;
  tokens: string[];
}

/** A device's first visit of version 1 of a journey, due at step `at`, as its entry event and earlier steps left it. */
export const seededTraveller = (
  traveller: { projectId: string; journeyId: string; subjectId: string; event: string; at: string; dueAt: Date },
  now: Date,
) => ({
  _id: travellerId(traveller.journeyId, 'device', traveller.subjectId, 1),
  projectId: traveller.projectId,
  journeyId: traveller.journeyId,
  version: 1,
  subjectType: 'device',
  subjectId: traveller.subjectId,
  visit: 1,
  entryEvent: { type: traveller.event, data: {} },
  entryEventId: `seeded:${traveller.subjectId}`,
  enteredAt: now,
  state: 'due',
  at: traveller.at,
  seq: 0,
  dueAt: traveller.dueAt,
});

/**
 * `count` device travellers of a wait → push journey, seeded as the wait's step run leaves them: at the push step,
 * due `dueInMs` from now, each with a subscribed Android device of its own.
 */
export async function seedWaitingTravellers(
  ingress: TestIngress,
  count: number,
  dueInMs: number,
): Promise<WaitingTravellers & { dueAt: Date }> {
  const project = await ingress.createProject('team');
  const journeyId = await journeyClient(
    () => ingress,
    () => project,
  ).create({
    name: 'Fault',
    entry: { event: 'fault-enter' },
    steps: [{ id: 'pause', type: 'wait', seconds: 60 }, pushStep('hello', 'Hello')],
  });
  const { Device, JourneyTraveller } = ingress.context.models;
  const { projectId } = project;
  const now = new Date();
  const dueAt = new Date(now.getTime() + dueInMs);
  const ids = Array.from({ length: count }, (_, index) => `t${index}`);
  const tokens = ids.map((id) => `${projectId}-${id}`);
  // A thousand documents a command: each command answers within the driver's bound (commandAnswerBoundMs) even when
  // SecantusDB shares a loaded machine with the rest of the suite.
  for (let start = 0; start < count; start += 1000) {
    const slice = ids.slice(start, start + 1000);
    await Device.insertMany(
      slice.map((id) => ({
        _id: deviceKey(projectId, id),
        projectId,
        deviceId: id,
        platform: 'android',
        pushToken: `${projectId}-${id}`,
        isSubscribed: true,
        createdAt: now,
        updatedAt: now,
      })),
      { lean: true },
    );
    await JourneyTraveller.insertMany(
      slice.map((id) => ({
        ...seededTraveller({ projectId, journeyId, subjectId: id, event: 'fault-enter', at: 'hello', dueAt }, now),
        waitingIn: 'pause',
      })),
      { lean: true },
    );
  }
  return { project, journeyId, tokens, dueAt };
}

/**
 * Resolves once at least `count` travellers of the journey have left (their push step ran). The count reads every
 * document it counts on the local server, whose one core also runs the steps under test, so the wait polls less often
 * the more it counts (once a second at 10,000).
 */
export function travellersDone(harness: FaultHarness, journeyId: string, count: number, timeoutMs = 120_000) {
  return eventually(
    async () =>
      expect(
        await harness.ingress.context.models.JourneyTraveller.countDocuments({ journeyId, state: 'done' }),
      ).toBeGreaterThanOrEqual(count),
    timeoutMs,
    Math.min(1000, Math.max(100, count / 10)),
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${harness.workerOutput()}`);
  });
}

/**
 * Every traveller completed the journey, and every device got its push: at most `maxDoubled` twice (CONTRACTS §1's
 * bound for the fault), none lost.
 */
export async function expectEveryTravellerPushed(
  harness: FaultHarness,
  { journeyId, tokens, project }: WaitingTravellers,
  maxDoubled = 0,
): Promise<void> {
  await travellersDone(harness, journeyId, tokens.length, 180_000);
  const { JourneyTraveller } = harness.ingress.context.models;
  expect(await JourneyTraveller.countDocuments({ journeyId, endReason: 'completed' })).toBe(tokens.length);
  const perToken = new Map(tokens.map((token) => [token, 0]));
  await eventually(
    () => {
      for (const token of perToken.keys()) perToken.set(token, 0);
      for (const { token } of harness.sandbox.deliveries()) {
        const count = perToken.get(token);
        if (count !== undefined) perToken.set(token, count + 1);
      }
      expect([...perToken.values()].filter((count) => count === 0).length).toBe(0);
    },
    120_000,
    500,
  ).catch(async (error: Error) => {
    const unpushed = [...perToken].filter(([, count]) => count === 0);
    const subjectIds = unpushed.map(([token]) => token.slice(project.projectId.length + 1));
    const { models, queues } = harness.ingress.context;
    throw new Error(`${error.message}\n${await describeUnpushed(models, queues, journeyId, subjectIds)}`);
  });
  const doubled = [...perToken.values()].filter((count) => count > 1).length;
  expect(doubled).toBeLessThanOrEqual(maxDoubled);
}
