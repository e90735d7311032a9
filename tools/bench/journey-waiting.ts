import { travellerId } from '../../src/models/journey-traveller.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import { checkTarget } from './database-ceilings.ts';
import { waitUntil } from './measure.ts';
import type { BenchContext } from './journey-flow.ts';
import { distribution, travellerStorage, travellerTimes, usedMemory } from './journey-measures.ts';

const insertChunk = 5000;
const probeDelayMs = 10_000;

/** Travellers at the journey's first push step, waiting in its wait step until dueAt, written as entry writes them. */
async function insertTravellers(
  context: BenchContext,
  journey: { _id: string; version: number },
  subjectIds: (index: number) => string,
  count: number,
  dueAt: Date,
) {
  const collection = context.bench.models.JourneyTraveller.collection;
  const now = new Date();
  for (let start = 0; start < count; start += insertChunk) {
    const documents = Array.from({ length: Math.min(insertChunk, count - start) }, (_, offset) => {
      const subjectId = subjectIds(start + offset);
      return {
        _id: travellerId(journey._id, 'device', subjectId, 1),
        projectId: context.project.projectId,
        journeyId: journey._id,
        version: journey.version,
        subjectType: 'device',
        subjectId,
        visit: 1,
        entryEvent: { type: 'bench_enter', data: {} },
        entryEventId: `seeded:${subjectId}`,
        enteredAt: now,
        state: 'due',
        at: 'first',
        seq: 1,
        dueAt,
        runId: null,
        claim: null,
        listening: null,
        waitingIn: 'wait',
        passed: [{ stepId: 'wait', at: now, outcome: { until: dueAt.toISOString() } }],
        endedAt: null,
        endReason: null,
      };
    });
    await collection.insertMany(documents as never[], { ordered: false });
    if ((start / insertChunk) % 4 === 0) context.log(`seeded ${start + documents.length}/${count} waiting travellers`);
  }
}

/**
 * `count` travellers seeded waiting a day in the journey's wait step: the Redis and MongoDB memory they cost; then the
 * probes (the bench's devices) due 10 s later at the push step, and how late their step ran beside the waiting ones.
 */
export async function measureWaiting(context: BenchContext, journeyId: string, count: number) {
  const { bench, redis, subjects: probes } = context;
  const journey = (await bench.models.Journey.findById(journeyId, { version: 1 }).lean())!;
  const db = bench.models.JourneyTraveller.db.db!;
  const [redisBefore, storageBefore] = [await usedMemory(redis), await travellerStorage(db)];
  const started = Date.now();
  await insertTravellers(context, journey, (index) => `waiting-${index}`, count, new Date(Date.now() + 86_400_000));
  const seedSeconds = (Date.now() - started) / 1000;
  const [redisAfter, storage] = [await usedMemory(redis), await travellerStorage(db)];
  const per = (bytes: number) => Math.round(bytes / count);
  const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));
  const memory = {
    seedSeconds: Number(seedSeconds.toFixed(1)),
    redisMb: mb(redisAfter - redisBefore),
    redisBytesPerTraveller: per(redisAfter - redisBefore),
    mongoDataMb: mb(storage.dataBytes - storageBefore.dataBytes),
    mongoStorageMb: mb(storage.storageBytes - storageBefore.storageBytes),
    mongoIndexMb: mb(storage.indexBytes - storageBefore.indexBytes),
    mongoDataBytesPerTraveller: per(storage.dataBytes - storageBefore.dataBytes),
    mongoStorageBytesPerTraveller: per(storage.storageBytes - storageBefore.storageBytes),
    mongoIndexBytesPerTraveller: per(storage.indexBytes - storageBefore.indexBytes),
  };
  context.log(`memory of ${count} waiting travellers: ${JSON.stringify(memory)}`);

  const probeIds = Array.from({ length: probes }, (_, index) => `device-${index}`);
  await insertTravellers(context, journey, (index) => probeIds[index]!, probes, new Date(Date.now() + probeDelayMs));
  const statsKey = redisKeys.journeyStats(bench.env.QUEUE_PREFIX!, journeyId);
  await waitUntil(
    'every probe to run its push step',
    async () => Number((await redis.hget(statsKey, 'first.entered')) ?? 0) >= probes,
    Math.max(1000, context.deadline - Date.now()),
    200,
  );
  const times = await travellerTimes(bench.models, { journeyId, subjectId: { $in: probeIds } }, 0, () => undefined);
  const lateness = distribution(times.lateness.first);
  const redisMbAtOneMillion = (memory.redisBytesPerTraveller * 1_000_000) / 1024 / 1024;
  return {
    memory,
    probeLateness: lateness,
    targets: [
      checkTarget(
        'Redis for 1,000,000 waiting travellers ≤ 300 MB',
        Number(redisMbAtOneMillion.toFixed(1)),
        redisMbAtOneMillion <= 300,
      ),
      checkTarget('due steps beside them run within 10 s (p99)', lateness.p99, lateness.p99 <= 10),
    ],
  };
}
