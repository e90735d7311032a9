import type { RedisClient } from '../../src/infra/redis.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import { inChunks } from '../../src/infra/chunks.ts';
import type { BenchEnvironment, projectApi } from './bench-environment.ts';
import { queueDepth, waitUntil } from './measure.ts';
import { seededIndex, seededToken } from './seed-devices.ts';
import { checkTarget } from './database-ceilings.ts';
import {
  deliveriesPerSecond,
  distribution,
  inRequests,
  travellerStorage,
  travellerTimes,
  usedMemory,
} from './journey-measures.ts';

export interface BenchContext {
  bench: BenchEnvironment;
  redis: RedisClient;
  api: ReturnType<typeof projectApi>;
  project: { projectId: string };
  subjects: number;
  deadline: number;
  log(line: string): void;
}

const inFlight = 16;
const perRequest = 100;
/** The subject of the seeded device-<index>: the device itself. */
const subjectOf = (index: number) => `device-${index}`;
const subjectIds = (count: number) => Array.from({ length: count }, (_, index) => subjectOf(index));
const remaining = (context: BenchContext) => Math.max(1000, context.deadline - Date.now());

/** The ceiling: a plain send to the same devices, from the first POST to the last receipt. */
export async function plainSend(context: BenchContext) {
  const { api, bench, subjects, log } = context;
  const sandbox = bench.sandbox!;
  const before = sandbox.deliveries().length;
  const started = Date.now();
  await inRequests(subjectIds(subjects), perRequest, inFlight, async (targetIds) => {
    await api('/notifications', { targetType: 'device', targetIds, title: 'Hello', body: 'A plain send' });
  });
  await deliveredOrSettled(context, () => sandbox.deliveries().length - before >= subjects);
  // The last receipt alone sets `seconds`: the middle and 99th tell a send that started late from a few late pushes.
  const receipts = distribution(
    sandbox
      .deliveries()
      .slice(before)
      .map((delivery) => Date.parse(delivery.receivedAt) - started),
  );
  const { count: deliveries, max: seconds } = receipts;
  log(
    `plain send: ${deliveries} deliveries in ${seconds.toFixed(1)} s (half by ${receipts.p50} s, 99% by ${receipts.p99} s)`,
  );
  return {
    deliveries,
    failed: subjects - deliveries,
    seconds,
    halfReceivedSeconds: receipts.p50,
    mostReceivedSeconds: receipts.p99,
    deliveriesPerSecond: Math.round(deliveries / seconds),
  };
}

/**
 * Until every push expected is received, or the send and deliver queues are empty twice a second apart: a push that
 * failed (a render past its time-out on a loaded machine) is never received, and is counted by its step instead.
 */
export async function deliveredOrSettled(context: BenchContext, allReceived: () => boolean) {
  const queues = (['send', 'deliver'] as const).map((name) => context.bench.queue(name));
  let emptyChecks = 0;
  await waitUntil(
    'the pushes to be delivered or the queues to settle',
    async () => {
      if (allReceived()) return true;
      const depths = await Promise.all(queues.map(queueDepth));
      emptyChecks = depths.every((depth) => depth === 0) ? emptyChecks + 1 : 0;
      return emptyChecks >= 2;
    },
    remaining(context),
    1000,
  );
}

/** Entry latencies: the k-th accepted event against the first sample whose `entered` count reached k (in order). */
function entryLatencies(accepted: number[], samples: Array<[number, number]>): number[] {
  const sorted = [...accepted].sort((a, b) => a - b);
  const latencies: number[] = [];
  let sample = 0;
  for (let k = 0; k < sorted.length; k++) {
    while (sample < samples.length && samples[sample]![1] < k + 1) sample++;
    if (sample === samples.length) break;
    latencies.push(Math.max(0, samples[sample]![0] - sorted[k]!));
  }
  return latencies;
}

/**
 * Those of `subjectIds` listening at the await step, read on the subject index in `$in`s of 100 and matched here: the
 * local server compares each document it reads with every value of an `$in`, and plans a filter that also names the
 * journey on the {journeyId, state} index (every traveller of the journey), so a read naming every pending reporter,
 * or the journey, held it for seconds at a time beside the steps this bench measures.
 */
async function listeningAmong(context: BenchContext, journeyId: string, subjectIds: string[]) {
  const { bench, project } = context;
  const listening: Array<{ subjectId: string; since: Date }> = [];
  for (const chunk of inChunks(subjectIds, perRequest)) {
    const travellers = await bench.models.JourneyTraveller.find(
      { projectId: project.projectId, subjectType: 'device', subjectId: { $in: chunk } },
      { subjectId: 1, journeyId: 1, state: 1, listening: 1 },
    ).lean();
    for (const traveller of travellers)
      if (traveller.journeyId === journeyId && traveller.state === 'due' && traveller.listening?.stepId === 'await')
        listening.push({ subjectId: traveller.subjectId, since: traveller.listening.since });
  }
  return listening;
}

export async function runJourney(
  context: BenchContext,
  journeyId: string,
  options: { waitSeconds: number; awaitSeconds: number; reportPercent: number; entryRate: number },
) {
  const { api, bench, redis, subjects, log } = context;
  const statsKey = redisKeys.journeyStats(bench.env.QUEUE_PREFIX!, journeyId);
  const count = async (field: string) => Number((await redis.hget(statsKey, field)) ?? 0);
  const delivered = bench.sandbox!.deliveries().length;
  const redisBefore = await usedMemory(redis);
  const storageBefore = await travellerStorage(bench.models.JourneyTraveller.db.db!);
  const acceptedAt = new Map<string, number>();
  const samples: Array<[number, number]> = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      samples.push([Date.now(), await count('entered')]);
      await new Promise((done) => setTimeout(done, 100));
    }
  })();
  const entryStarted = Date.now();
  await inRequests(
    subjectIds(subjects),
    perRequest,
    inFlight,
    async (ids) => {
      await api('/events', {
        events: ids.map((subjectId) => ({ type: 'bench_enter', subjectType: 'device', subjectId })),
      });
      const now = Date.now();
      for (const id of ids) acceptedAt.set(id, now);
    },
    options.entryRate,
  );
  const entrySeconds = (Date.now() - entryStarted) / 1000;
  log(`${subjects} entry events accepted in ${entrySeconds.toFixed(1)} s`);
  await waitUntil('every subject to enter', async () => (await count('entered')) >= subjects, remaining(context), 200);
  sampling = false;
  await sampler;
  samples.push([Date.now(), await count('entered')]);

  // Memory once every traveller has reached the first step (the earliest may have gone past it when entry outlasts the
  // wait), the entry events' finished jobs removed (their retention is the queue's, not the travellers').
  await waitUntil(
    'every traveller to reach the wait',
    async () => (await count('wait.entered')) >= subjects,
    remaining(context),
    200,
  );
  const ingest = context.bench.queue('event-ingest');
  await waitUntil('the event-ingest queue to drain', async () => (await queueDepth(ingest)) === 0, remaining(context));
  await ingest.clean(0, 1_000_000, 'completed');
  const redisBytes = (await usedMemory(redis)) - redisBefore;
  const storage = await travellerStorage(bench.models.JourneyTraveller.db.db!);
  const waiting = await count('wait.waiting');
  const perTraveller = (field: keyof typeof storage) => Math.round((storage[field] - storageBefore[field]) / subjects);
  const memory = {
    waiting,
    redisBytesPerTraveller: Math.round(redisBytes / subjects),
    mongoDataBytesPerTraveller: perTraveller('dataBytes'),
    mongoStorageBytesPerTraveller: perTraveller('storageBytes'),
    mongoIndexBytesPerTraveller: perTraveller('indexBytes'),
  };
  log(`memory while waiting: ${JSON.stringify(memory)}`);

  // The reporters: each reports once it listens at the await step, so that its event counts (CONTRACTS §18). Only
  // those whose first push has arrived are read, each until it listens: the bench's reads are work on the server
  // whose steps it measures.
  const every = Math.max(1, Math.round(100 / options.reportPercent));
  const pending = new Set(subjectIds(subjects).filter((_, index) => index % every === 0));
  const reporters = pending.size;
  const pushed = new Set<string>();
  let reportedLate = 0;
  let deliveriesSeen = delivered;
  while (pending.size > 0 && (await count('completed')) + (await count('exited')) < subjects) {
    const deliveries = bench.sandbox!.deliveries();
    for (const { token } of deliveries.slice(deliveriesSeen)) {
      const subjectId = subjectOf(seededIndex(token));
      if (pending.has(subjectId)) pushed.add(subjectId);
    }
    deliveriesSeen = deliveries.length;
    const found = pushed.size > 0 ? await listeningAmong(context, journeyId, [...pushed]) : [];
    const ids = found.map(({ subjectId }) => subjectId);
    // A report sent after its traveller's timeout does not count (CONTRACTS §18), however the product runs.
    const reportedAt = Date.now();
    reportedLate += found.filter(({ since }) => reportedAt - since.getTime() > options.awaitSeconds * 1000).length;
    for (const id of ids) {
      pending.delete(id);
      pushed.delete(id);
    }
    await inRequests(ids, perRequest, inFlight, async (chunk) => {
      await api('/events', {
        events: chunk.map((subjectId) => ({ type: 'bench_report', subjectType: 'device', subjectId })),
      });
    });
    await new Promise((done) => setTimeout(done, 500));
  }
  log(`${reporters - pending.size} of ${reporters} reporters reported; waiting for every traveller to finish`);
  await waitUntil(
    'every traveller to finish',
    async () => (await count('completed')) >= subjects,
    remaining(context),
    500,
  );

  const times = await travellerTimes(bench.models, { journeyId }, options.awaitSeconds, (id) => acceptedAt.get(id));
  const expected = [...times.pushesOf.values()].reduce((sum, pushes) => sum + pushes, 0);
  await deliveredOrSettled(context, () => bench.sandbox!.deliveries().length - delivered >= expected);
  const { stats } = await api<{ stats: { steps: Record<string, { failed?: number }> } }>(`/journeys/${journeyId}`);
  const failed = (stats.steps.first?.failed ?? 0) + (stats.steps.reminder?.failed ?? 0);
  // A token's first delivery is the first push step's, its second the reminder's; any more is a duplicate.
  const received = new Map<string, number>();
  const receipts: [number[], number[]] = [[], []];
  for (const delivery of bench.sandbox!.deliveries().slice(delivered)) {
    const nth = received.get(delivery.token) ?? 0;
    received.set(delivery.token, nth + 1);
    if (nth < 2) receipts[nth]!.push(Date.parse(delivery.receivedAt));
  }
  let duplicates = 0;
  let missing = 0;
  for (const [subjectId, pushes] of times.pushesOf) {
    const got = received.get(seededToken(Number(subjectId.slice('device-'.length)))) ?? 0;
    duplicates += Math.max(0, got - pushes);
    missing += Math.max(0, pushes - got);
  }
  const pushRates = {
    first: deliveriesPerSecond(receipts[0], times.dueFrom.first),
    reminder: deliveriesPerSecond(receipts[1], times.dueFrom.reminder),
  };
  const entry = distribution(entryLatencies([...acceptedAt.values()], samples));
  const lateness = distribution(Object.values(times.lateness).flat());
  const latenessByStep = Object.fromEntries(
    Object.entries(times.lateness).map(([step, all]) => [step, distribution(all)]),
  );
  return {
    entrySeconds: Number(entrySeconds.toFixed(1)),
    // The rate at which the first push step's travellers fall due, which its deliveries/s cannot exceed.
    entriesPerSecond: Math.round(subjects / entrySeconds),
    entryAfterAccepted: entry,
    firstStepAfterAccepted: distribution(times.firstStep),
    lateness,
    latenessByStep,
    reporters,
    reportedAfterTimeout: reportedLate,
    heard: times.heard,
    completed: times.completed,
    pushesSent: expected,
    pushRates,
    duplicates,
    failed,
    lost: missing - failed,
    memory,
    targets: [
      checkTarget('entry p99 ≤ 5 s after the event is accepted', entry.p99, entry.p99 <= 5),
      checkTarget('step lateness p99 ≤ 10 s', lateness.p99, lateness.p99 <= 10),
      checkTarget('0 duplicates and none lost', duplicates + missing - failed, duplicates + missing === failed),
      checkTarget(
        '≤ 300 bytes of Redis per waiting traveller',
        memory.redisBytesPerTraveller,
        memory.redisBytesPerTraveller <= 300,
      ),
    ],
  };
}
