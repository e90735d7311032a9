import { travellerId } from '../../src/models/journey-traveller.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import { dueTravellersQuery } from '../../src/journeys/find-due.ts';
import { checkTarget } from './database-ceilings.ts';
import { waitUntil } from './measure.ts';
import { type BenchContext, deliveredOrSettled } from './journey-flow.ts';
import { deliveriesPerSecond, distribution, travellerStorage, travellerTimes, usedMemory } from './journey-measures.ts';

const insertChunk = 10_000;
const probeDelayMs = 10_000;
// Beyond the delay, time to write the probes (the local server inserts 800–2,600 travellers/s), so that all of them
// are waiting when they fall due together.
const probeInsertMs = 2;
const seconds = (since: number) => Number(((Date.now() - since) / 1000).toFixed(1));

/** A traveller at the journey's first push step, waiting in its wait step until dueAt, as entry writes it. */
export function waitingTraveller(
  projectId: string,
  journey: { _id: string; version: number },
  subjectId: string,
  now: Date,
  dueAt: Date,
) {
  return {
    _id: travellerId(journey._id, 'device', subjectId, 1),
    projectId,
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
}

/** Travellers at the journey's first push step, waiting in its wait step until dueAt (waitingTraveller). */
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
    const documents = Array.from({ length: Math.min(insertChunk, count - start) }, (_, offset) =>
      waitingTraveller(context.project.projectId, journey, subjectIds(start + offset), now, dueAt),
    );
    await collection.insertMany(documents as never[], { ordered: false });
    if ((start / insertChunk) % 10 === 0) context.log(`seeded ${start + documents.length}/${count} waiting travellers`);
  }
}

export interface Seeded {
  journey: { _id: string; version: number };
  count: number;
  redisBefore: number;
  storageBefore: Awaited<ReturnType<typeof travellerStorage>>;
  insertSeconds: number;
}

/**
 * `count` travellers waiting a day in the journey's wait step, written before the workers start, in unordered
 * inserts of 10,000. The local server's insert is its limit: it maintains the collection's five indexes per document
 * and reads its index catalog again for each one (a third of its time), about 800–2,600 documents/s here, against
 * 5,000–19,000/s into the bare collection. Building the indexes afterwards is no way round it: the server builds an
 * index in one transaction, which stalled at 100,000 travellers.
 */
export async function seedWaiting(context: BenchContext, journeyId: string, count: number): Promise<Seeded> {
  const { bench, redis } = context;
  const model = bench.models.JourneyTraveller;
  const journey = (await bench.models.Journey.findById(journeyId, { version: 1 }).lean())!;
  const [redisBefore, storageBefore] = [await usedMemory(redis), await travellerStorage(model.db.db!)];
  const started = Date.now();
  await insertTravellers(context, journey, (index) => `waiting-${index}`, count, new Date(Date.now() + 86_400_000));
  const insertSeconds = seconds(started);
  context.log(`seeded ${count} in ${insertSeconds} s`);
  return { journey, count, redisBefore, storageBefore, insertSeconds };
}

/** The step runner's claim beside the waiting travellers: its plan, the keys and documents it read, its time. */
async function claimPlan(context: BenchContext) {
  const explained = (await dueTravellersQuery(context.bench.models, 'due', new Date(), 500).explain(
    'executionStats',
  )) as unknown as {
    queryPlanner: { winningPlan: Record<string, unknown> };
    executionStats: { executionTimeMillis: number; totalKeysExamined: number; totalDocsExamined: number };
  };
  const stages: string[] = [];
  for (let stage = explained.queryPlanner.winningPlan; stage; stage = stage.inputStage as Record<string, unknown>)
    stages.push(String(stage.stage));
  const { executionTimeMillis, totalKeysExamined, totalDocsExamined } = explained.executionStats;
  return { stages: stages.join(' ← '), executionTimeMillis, totalKeysExamined, totalDocsExamined };
}

/**
 * With the workers running beside the seeded travellers: the claim's plan, then the probes (the bench's devices), all
 * due at one moment at the push step: how late their step ran, and its deliveries/s from that moment to the last
 * receipt (a push step's own rate, which the flow's steps cannot show: their travellers fall due at the entry rate);
 * then the Redis and MongoDB memory the waiting travellers cost, Redis measured after the probes ran, so that it holds
 * the workers' own bookkeeping too.
 */
export async function measureProbes(context: BenchContext, journeyId: string, seeded: Seeded) {
  const { bench, redis, subjects: probes } = context;
  const plan = await claimPlan(context);
  context.log(`the claim at ${seeded.count} waiting: ${JSON.stringify(plan)}`);
  const probeIds = Array.from({ length: probes }, (_, index) => `device-${index}`);
  const delivered = bench.sandbox!.deliveries().length;
  const dueAt = new Date(Date.now() + probeDelayMs + probes * probeInsertMs);
  await insertTravellers(context, seeded.journey, (index) => probeIds[index]!, probes, dueAt);
  if (Date.now() > dueAt.getTime()) context.log('the probes were written after their due time: they fell due apart');
  const statsKey = redisKeys.journeyStats(bench.env.QUEUE_PREFIX!, journeyId);
  await waitUntil(
    'every probe to run its push step',
    async () => Number((await redis.hget(statsKey, 'first.entered')) ?? 0) >= probes,
    Math.max(1000, context.deadline - Date.now()),
    200,
  );
  await deliveredOrSettled(context, () => bench.sandbox!.deliveries().length - delivered >= probes);
  const receipts = bench
    .sandbox!.deliveries()
    .slice(delivered)
    .map((delivery) => Date.parse(delivery.receivedAt));
  // An _id range of the probes' subjects (device-…): the journey's other travellers are the seeded ones (waiting-…),
  // which a read by journey or subject would go through, and an $in naming every probe is quadratic on the local server.
  const probeRange = { $gte: `${journeyId}:device:device-`, $lt: `${journeyId}:device:device.` };
  const times = await travellerTimes(bench.models, { _id: probeRange }, 0, () => undefined);
  const lateness = distribution(times.lateness.first);
  const [redisAfter, storage] = [await usedMemory(redis), await travellerStorage(bench.models.JourneyTraveller.db.db!)];
  const { count, redisBefore, storageBefore } = seeded;
  const per = (bytes: number) => Math.round(bytes / count);
  const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));
  const memory = {
    seedSeconds: seeded.insertSeconds,
    redisMb: mb(redisAfter - redisBefore),
    redisBytesPerTraveller: per(redisAfter - redisBefore),
    mongoDataMb: mb(storage.dataBytes - storageBefore.dataBytes),
    mongoStorageMb: mb(storage.storageBytes - storageBefore.storageBytes),
    mongoIndexMb: mb(storage.indexBytes - storageBefore.indexBytes),
    mongoDataBytesPerTraveller: per(storage.dataBytes - storageBefore.dataBytes),
    mongoStorageBytesPerTraveller: per(storage.storageBytes - storageBefore.storageBytes),
    mongoIndexBytesPerTraveller: per(storage.indexBytes - storageBefore.indexBytes),
  };
  const redisMbAtOneMillion = (memory.redisBytesPerTraveller * 1_000_000) / 1024 / 1024;
  return {
    memory,
    claimPlan: plan,
    probeLateness: lateness,
    pushRates: { first: deliveriesPerSecond(receipts, dueAt.getTime()) },
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
