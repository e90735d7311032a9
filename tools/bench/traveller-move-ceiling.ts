import { randomBytes } from 'node:crypto';
import type { Collection, IndexSpecification } from 'mongodb';
import { inChunks, maxIdsPerIn } from '../../src/infra/chunks.ts';
import { claimBatchSize } from '../../src/journeys/claim-due-travellers.ts';
import type { Models } from '../../src/models/index.ts';
import { type Ceiling, runLanes, scratchCollection } from './database-ceilings.ts';
import { waitingTraveller } from './journey-waiting.ts';

/**
 * Raw moves of travellers past a push step, as a step run writes them (advanceTravellers): claim batches of 500, each
 * one bulkWrite of `updateMany`s by `$in`s of 100 conditional on the step and seq, setting the next step's wait and
 * pushing the step passed; 4 batches in flight. On `count` travellers in a scratch collection with the travellers'
 * indexes, each moved once. Answers travellers per second.
 */
export async function travellerMoveCeiling(models: Models, count: number): Promise<Ceiling> {
  const indexes = models.JourneyTraveller.schema
    .indexes()
    .map(([keys, options]) => [keys as IndexSpecification, options] as [IndexSpecification, object]);
  const scratch = await scratchCollection(models.JourneyTraveller.db.db!, 'travellers', indexes);
  const { drop } = scratch;
  const collection = scratch.collection as unknown as Collection<{ _id: string }>;
  const journey = { _id: `ceiling-${randomBytes(4).toString('hex')}`, version: 1 };
  const now = new Date();
  const ids: string[] = [];
  try {
    for (let start = 0; start < count; start += 5000) {
      const documents = Array.from({ length: Math.min(5000, count - start) }, (_, offset) =>
        waitingTraveller('ceiling', journey, `device-${start + offset}`, now, now),
      );
      ids.push(...documents.map((document) => document._id));
      await collection.insertMany(documents as never[], { ordered: false });
    }
    return await runLanes(
      `raw moves of travellers past a push step, batches of ${claimBatchSize}`,
      { concurrency: 4, operations: Math.ceil(count / claimBatchSize) },
      claimBatchSize,
      (batch) => {
        const movedAt = new Date();
        const update = {
          $set: {
            state: 'due',
            at: 'await',
            dueAt: new Date(movedAt.getTime() + 60_000),
            waitingIn: 'await',
            listening: { stepId: 'await', event: 'bench_report', since: movedAt },
            claim: null,
            runId: null,
            movedBy: `move-${batch}`,
            failures: 0,
          },
          $inc: { seq: 1 },
          $push: { passed: { $each: [{ stepId: 'first', at: movedAt, outcome: { notificationId: `jp-${batch}` } }] } },
        };
        const batchIds = ids.slice(batch * claimBatchSize, (batch + 1) * claimBatchSize);
        return collection.bulkWrite(
          [...inChunks(batchIds, maxIdsPerIn)].map((chunk) => ({
            updateMany: {
              filter: { _id: { $in: chunk }, state: { $in: ['due', 'held'] }, at: 'first', seq: 1 },
              update,
            },
          })),
          { ordered: false },
        );
      },
    );
  } finally {
    await drop();
  }
}
