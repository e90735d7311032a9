import { expect, it } from 'vitest';
import { claimBatchSize, claimFound } from '../../src/journeys/claim-due-travellers.ts';
import { DueBacklog } from '../../src/journeys/due-backlog.ts';
import { runClaimedSteps } from '../../src/journeys/run-claimed-steps.ts';
import { holdTravellers } from '../../src/journeys/traveller-states.ts';
import type { Traveller } from '../../src/journeys/steps/step-context.ts';
import { useDeliveryHarness } from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { seedWaitingTravellers } from '../support/journey-faults.ts';

// No journey-steps worker: the test hands out, claims and runs the batches itself, so that it can "kill" a claim.
const { harness } = useDeliveryHarness({ queues: ['send', 'deliver'], projects: {} });

const waveSize = 2 * claimBatchSize;

/**
 * Issue 47: a step runs once per traveller, whatever its worker's fate. A backlog read's remainder is older than the
 * travellers due since, some of which sort between its own (one due time, ids out of insertion order); a claim from it
 * takes its own batch, never those. A killed worker's claim is taken over under its run id, whichever process takes
 * it and in however many parts: its push step sends each of its travellers once.
 */
it('claims never exceed their batch, and a killed claim is taken over under its run id: every traveller pushed once', async () => {
  const context = harness.ingress.context;
  const { JourneyTraveller } = context.models;
  const seeded = await seedWaitingTravellers(harness.ingress, 2 * waveSize, -1000);
  const secondWave = seeded.tokens.slice(waveSize).map((token) => token.slice(seeded.project.projectId.length + 1));
  const inSecondWave = { journeyId: seeded.journeyId, subjectId: { $in: secondWave } };
  await JourneyTraveller.updateMany(inSecondWave, { $set: { state: 'held' } });
  const state = { defaultZone: async () => 'UTC', versions: new Map() };
  const lease = context.config.journeyClaimLeaseMs;
  const claimSizes: number[] = [];

  const backlog = new DueBacklog(context);
  const first = await backlog.nextBatch();
  const killedSmall = await claimFound(context, 0, first.slice(0, 300));
  const ran = await claimFound(context, lease, first.slice(300));
  await runClaimedSteps(context, state, ran.claim, ran.travellers);
  // Due since the read, at the same time as its travellers, their ids among the remainder's.
  await JourneyTraveller.updateMany(inSecondWave, { $set: { state: 'due' } });
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = await backlog.nextBatch();
  const killedWhole = await claimFound(context, 0, second);
  claimSizes.push(killedSmall.travellers.length, ran.travellers.length, killedWhole.travellers.length);
  expect(killedWhole.travellers.map((traveller) => traveller._id).sort()).toEqual(
    second.map((found) => found._id).sort(),
  );

  // The killed claims' leases have passed: a new process takes them over, then the rest.
  const restarted = new DueBacklog(context);
  for (let batch = await restarted.nextBatch(); batch.length > 0; batch = await restarted.nextBatch()) {
    const { claim, travellers } = await claimFound(context, lease, batch);
    claimSizes.push(travellers.length);
    if (travellers.length > 0) await runClaimedSteps(context, state, claim, travellers);
  }

  expect(claimSizes.every((size) => size <= claimBatchSize)).toBe(true);
  expect(await JourneyTraveller.countDocuments({ journeyId: seeded.journeyId, endReason: 'completed' })).toBe(
    2 * waveSize,
  );
  await eventually(
    () => expect(pushesPerToken(seeded.tokens).filter((count) => count === 0)).toHaveLength(0),
    120_000,
    200,
  );
  expect(pushesPerToken(seeded.tokens).filter((count) => count > 1)).toHaveLength(0);
}, 240_000);

/*
 * Two workers taking over one lapsed claim at once may split it (each takes the travellers it finds first), both parts
 * under the claim's runId: the part that runs second must still be pushed, and a rerun of it (its worker killed after
 * the push, before the move), whole or in part, must not push again.
 */
it('a killed claim taken over in two parts at once: each part pushed, a rerun of a part pushes nothing twice', async () => {
  const context = harness.ingress.context;
  const { JourneyTraveller, Notification } = context.models;
  const seeded = await seedWaitingTravellers(harness.ingress, 400, -1000);
  const state = { defaultZone: async () => 'UTC', versions: new Map() };
  // Claimed in Redis and never run: each part as a claim that takes it over reads it, under the killed claim's runId.
  const killed = await claimFound(context, 0, await new DueBacklog(context).nextBatch());
  expect(new Set(killed.travellers.map((traveller) => traveller.runId))).toEqual(new Set([killed.claim]));
  const parts = [killed.travellers.slice(0, 150), killed.travellers.slice(150)];
  const runPart = async (index: number, travellers = parts[index]!) =>
    runClaimedSteps(context, state, `part-${index}`, travellers);
  const runAgain = async (travellers: Traveller[]) => {
    const [first] = travellers as [Traveller];
    await JourneyTraveller.updateMany(
      { _id: { $in: travellers.map((traveller) => traveller._id) } },
      { $set: { state: 'due', at: first.at, seq: first.seq, dueAt: first.dueAt, endReason: null, endedAt: null } },
    );
    await runPart(1, travellers);
  };

  await runPart(0);
  await runPart(1);
  await runAgain(parts[1]!);
  await runAgain(parts[1]!.slice(0, 50));

  expect(await JourneyTraveller.countDocuments({ journeyId: seeded.journeyId, endReason: 'completed' })).toBe(400);
  await eventually(
    async () =>
      expect(await Notification.find({ journeyId: seeded.journeyId }, { status: 1 }).lean()).toEqual([
        expect.objectContaining({ status: 'completed' }),
        expect.objectContaining({ status: 'completed' }),
      ]),
    120_000,
    200,
  );
  expect(pushesPerToken(seeded.tokens).filter((count) => count !== 1)).toHaveLength(0);
}, 240_000);

function pushesPerToken(tokens: string[]) {
  const counts = new Map(tokens.map((token) => [token, 0]));
  for (const { token } of harness.sandbox.deliveries())
    if (counts.has(token)) counts.set(token, counts.get(token)! + 1);
  return [...counts.values()];
}

/*
 * A claim of due travellers is held in Redis: their records are written by their step's move alone. Another claim
 * takes none of them while the lease holds, and takes them over under the same runId once it lapsed.
 */
it('a claim leaves due travellers unwritten, holds them from other claims, and hands its runId on once lapsed', async () => {
  const context = harness.ingress.context;
  const { JourneyTraveller } = context.models;
  const seeded = await seedWaitingTravellers(harness.ingress, 20, -1000);
  const records = () => JourneyTraveller.find({ journeyId: seeded.journeyId }).sort({ _id: 1 }).lean();
  const due = (await new DueBacklog(context).nextBatch()).filter(({ _id }) => _id.startsWith(seeded.journeyId));
  const before = await records();

  const killed = await claimFound(context, 0, due);
  expect(killed.travellers).toHaveLength(20);
  expect(await records()).toEqual(before);
  const takenOver = await claimFound(context, 60_000, due);
  expect(takenOver.travellers.map(({ runId }) => runId)).toEqual(Array(20).fill(killed.claim));
  expect((await claimFound(context, 60_000, due)).travellers).toEqual([]);
  expect(await records()).toEqual(before);
});

/*
 * A claim's key outranks claims of older reads: one that read a traveller before its last move takes nothing. A step
 * run let go unrun (its journey paused) keeps its runId, on the held record, for the claim after the resume: the step
 * may have run for a worker that died before recording it.
 */
it("a claim of an older read leaves a later step's claim alone, and a paused step run resumes under its runId", async () => {
  const context = harness.ingress.context;
  const { Journey, JourneyTraveller } = context.models;
  const seeded = await seedWaitingTravellers(harness.ingress, 20, -1000);
  const mine = async () =>
    (await new DueBacklog(context).nextBatch()).filter(({ _id }) => _id.startsWith(seeded.journeyId));
  const due = await mine();
  const killed = await claimFound(context, 0, due);
  const live = await claimFound(context, 60_000, due);
  expect(live.travellers.map(({ runId }) => runId)).toEqual(Array(20).fill(killed.claim));
  const olderRead = due.map((found) => ({ ...found, seq: found.seq - 1 }));
  expect((await claimFound(context, 0, olderRead)).travellers).toEqual([]);
  expect((await claimFound(context, 60_000, due)).travellers).toEqual([]);

  await Journey.updateOne({ _id: seeded.journeyId }, { $set: { status: 'paused' } });
  const state = { defaultZone: async () => 'UTC', versions: new Map() };
  await runClaimedSteps(context, state, live.claim, live.travellers);
  const held = await JourneyTraveller.find({ journeyId: seeded.journeyId }, { state: 1, runId: 1 }).lean();
  expect(new Set(held.map(({ state, runId }) => `${state} ${runId}`))).toEqual(new Set([`held ${killed.claim}`]));
  await Journey.updateOne({ _id: seeded.journeyId }, { $set: { status: 'active' } });
  await holdTravellers(context.models, seeded.journeyId, false);
  const resumed = await claimFound(context, 60_000, await mine());
  expect(resumed.travellers.map(({ runId }) => runId)).toEqual(Array(20).fill(killed.claim));
});
