import { afterEach, beforeAll, expect, it } from 'vitest';
import { claimDueTravellers } from '../support/due-claims.ts';
import { runClaimedSteps, type RunnerState } from '../../src/journeys/run-claimed-steps.ts';
import { registerDevices } from '../support/delivery-harness.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { deviceEvent, useJourneyHarnessWithoutRunner } from '../support/journeys.ts';

// No journey-steps worker: the test runs the step runner's batches itself, to fail the write that moves one.
const { harness, project, journeys } = useJourneyHarnessWithoutRunner();
const context = () => harness.ingress.context;
const devices = ['c-1', 'c-2', 'c-3'];
const state: RunnerState = { defaultZone: async () => 'UTC', versions: new Map() };
let restore: (() => void) | undefined;

beforeAll(async () => {
  await registerDevices(
    harness.ingress,
    project,
    devices.map((id) => ({ id, platform: 'android' as const, token: `tok-${id}` })),
  );
});
afterEach(() => restore?.());

type Failure = 'before' | 'after';

/**
 * The write of travellers after `skip` others fails once: before it reaches the storage server (`before`), or after
 * the server applied it, its answer lost (`after`), as a connection dropped at either moment.
 */
function failTravellerWrite(when: Failure, skip: number) {
  const model = context().models.JourneyTraveller;
  const real = model.bulkWrite;
  let left = skip;
  restore = () => {
    model.bulkWrite = real;
  };
  model.bulkWrite = (async (...args: Parameters<typeof real>) => {
    if (left-- > 0) return real.apply(model, args);
    restore!();
    if (when === 'after') await real.apply(model, args);
    throw new Error('connection closed');
  }) as typeof real;
}

/**
 * One batch of the step runner: claims what is due, with a lease that lapses at once (the claim's, and that of the
 * travellers going on at once), and runs it; `failMove` fails the first step's move, or with `chained` the move of the
 * step its travellers go on to at once in the same run (a setTags step: the wait after it is recorded in its move).
 */
async function runBatch(failMove?: Failure, chained = false) {
  const { claim, travellers } = await claimDueTravellers(context(), 0);
  if (failMove) failTravellerWrite(failMove, chained ? 1 : 0);
  const deps = { ...context(), config: { ...context().config, journeyClaimLeaseMs: 0 } };
  await runClaimedSteps(deps, state, claim, travellers);
}

/** A journey whose three travellers are due at its first step, which the runner has not run yet. */
async function travellersAtFirstStep(name: string): Promise<string> {
  const id = await journeys.create({
    name,
    entry: { event: `${name}-enter` },
    steps: [
      { id: 'tag', type: 'setTags', tags: { seen: 1 } },
      { id: 'retag', type: 'setTags', tags: { seen: 2 } },
      { id: 'pause', type: 'wait', seconds: 3600 },
      { id: 'later', type: 'setTags', tags: { seen: 3 } },
    ],
  });
  await journeys.report(devices.map((device) => deviceEvent(device, `${name}-enter`)));
  await waitFor(
    () => context().models.JourneyTraveller.countDocuments({ journeyId: id, at: 'tag', state: 'due' }),
    (count) => count === devices.length,
  );
  return id;
}

it.each([
  ['before', false],
  ['after', false],
  ['before', true],
  ['after', true],
] as const)(
  'a step whose move of the batch fails (%s the server applies it; chained: %s) counts each traveller once',
  async (when, chained) => {
    const id = await travellersAtFirstStep(`counts-${when}-${chained}`);
    await runBatch(when, chained);
    expect(context().models.JourneyTraveller.bulkWrite.name).toBe('bulkWrite');
    // The batch not moved runs its step again once its lease lapses; the one moved goes on to its wait.
    await runBatch();
    await runBatch();
    const travellers = await context().models.JourneyTraveller.find({ journeyId: id }).lean();
    expect(travellers.map((traveller) => traveller.at)).toEqual(devices.map(() => 'later'));
    // `entered` is the ingest worker's, written after the travellers it entered.
    await eventually(async () => {
      const { stats } = await journeys.read(id);
      expect(stats.steps.tag).toMatchObject({ entered: 3, waiting: 0 });
      expect(stats.steps.retag).toMatchObject({ entered: 3, waiting: 0 });
      expect(stats.steps.pause).toMatchObject({ entered: 3, waiting: 3 });
      expect(stats).toMatchObject({ entered: 3, active: 3, completed: 0, exited: 0 });
    });
  },
);
