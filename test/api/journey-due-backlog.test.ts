import { Redis } from 'ioredis';
import { expect, it, vi } from 'vitest';
import type { Deps } from '../../src/deps.ts';
import { claimBatchSize } from '../../src/journeys/claim-due-travellers.ts';
import { DueBacklog } from '../../src/journeys/due-backlog.ts';
import { eventIngestJobName } from '../../src/queues/event-ingest.ts';
import { useDeliveryHarness } from '../support/delivery-harness.ts';
import { seededTraveller } from '../support/journey-faults.ts';
import { waitFor } from '../support/eventually.ts';

// No journey-steps worker: the test hands out the due travellers itself.
const { harness } = useDeliveryHarness({ queues: ['send'], projects: {} });
const models = () => harness.ingress.context.models;

/** `count` travellers of a journey of their own, due `agoMs` ago, oldest first by their index. */
async function seedDue(journeyId: string, count: number, agoMs: number) {
  const now = Date.now();
  await models().JourneyTraveller.insertMany(
    Array.from({ length: count }, (_, index) =>
      seededTraveller(
        {
          projectId: 'backlog',
          journeyId,
          subjectId: `${journeyId}-${index}`,
          event: 'enter',
          at: 'hello',
          dueAt: new Date(now - agoMs + index),
        },
        new Date(now),
      ),
    ),
    { lean: true },
  );
}

it("a backlog read once serves a process's runs a claim's batch at a time, oldest first, without a read per batch", async () => {
  await seedDue('old', 3 * claimBatchSize, 60_000);
  const backlog = new DueBacklog(harness.ingress.context);
  const first = await backlog.nextBatch();
  // Written after the read, due before every traveller read: a read per batch would hand them out next.
  await seedDue('older', 10, 90_000);
  const [second, third] = await Promise.all([backlog.nextBatch(), backlog.nextBatch()]);
  const batches = [first, second, third];
  const handedOut = batches.flat().map((found) => found._id);
  expect(batches.map((batch) => batch.length)).toEqual([claimBatchSize, claimBatchSize, claimBatchSize]);
  expect(new Set(handedOut).size).toBe(3 * claimBatchSize);
  expect(handedOut.every((id) => id.startsWith('old:'))).toBe(true);
  const dueAts = batches.flat().map((found) => found.dueAt.getTime());
  expect(dueAts).toEqual([...dueAts].sort((a, b) => a - b));
  // The read used up, the next batch comes from a fresh read: those due since first, then the first read's (none was
  // claimed here, so they are still due).
  const fresh = (await backlog.nextBatch()).map((found) => found._id);
  expect(fresh).toHaveLength(claimBatchSize);
  expect(fresh.slice(0, 10).every((id) => id.startsWith('older:'))).toBe(true);
  expect(fresh.slice(10)).toEqual(first.slice(0, claimBatchSize - 10).map((found) => found._id));
});

it('concurrent runs share one read and are handed disjoint batches', async () => {
  await seedDue('shared', 2 * claimBatchSize, 120_000);
  const backlog = new DueBacklog(harness.ingress.context);
  const batches = await Promise.all([backlog.nextBatch(), backlog.nextBatch()]);
  const ids = batches.flat().map((found) => found._id);
  expect(batches.map((batch) => batch.length)).toEqual([claimBatchSize, claimBatchSize]);
  expect(new Set(ids).size).toBe(2 * claimBatchSize);
});

it("a fresh read leaves out the travellers of this process's runs in flight, and not those of a failed claim", async () => {
  // The oldest due of the database, and exactly one read's worth.
  await seedDue('inflight', 2 * claimBatchSize, 3_600_000);
  const context = harness.ingress.context;
  const backlog = new DueBacklog(context, 2 * claimBatchSize);
  let endRuns!: () => void;
  const runsHeld = new Promise<void>((resolve) => {
    endRuns = resolve;
  });
  const running: number[] = [];
  // A run in flight: its travellers claimed and still due in MongoDB, their step not yet recorded.
  const hold = async (_claim: string, travellers: unknown[]) => {
    running.push(travellers.length);
    await runsHeld;
    return travellers.length;
  };
  const runs = [backlog.runNextBatch(60_000, hold), backlog.runNextBatch(60_000, hold)];
  await waitFor(
    async () => running.length,
    (count) => count === 2,
  );
  // Both runs in flight: the read is used up, so the next batch comes from a fresh read, which finds them due.
  const next = await backlog.nextBatch();
  expect(next.filter((found) => found._id.startsWith('inflight:'))).toEqual([]);
  endRuns();
  expect((await Promise.all(runs)).map(({ ran }) => ran)).toEqual([claimBatchSize, claimBatchSize]);

  await seedDue('refused', claimBatchSize, 7_200_000);
  const another = new DueBacklog({ ...context, redis: closedRedis(context.config.redisUrl) }, claimBatchSize);
  await expect(another.runNextBatch(60_000, hold)).rejects.toThrow("Stream isn't writeable");
  // Still due: the next read hands them out again.
  expect((await another.nextBatch()).map((found) => found._id.split(':')[0])).toEqual(
    Array(claimBatchSize).fill('refused'),
  );
});

/** A client of the same Redis that never connected: its commands fail as a lost connection's do. */
const closedRedis = (url: string) =>
  new Redis(url, { lazyConnect: true, enableOfflineQueue: false }) as unknown as Deps['redis'];

it('reads past waitForEvent timeouts waiting for their events to be ingested, and hands them out once ingested', async () => {
  await models().JourneyTraveller.deleteMany({});
  // An event of the project accepted, and not ingested (no event-ingest worker here): its timeouts due since wait.
  const { job, seed } = await laggingProject('held');
  const acceptedAt = job.timestamp;
  // A step due the moment the event was accepted (never waiting), more waiting timeouts than two reads' worth, then steps
  // due after them that are not timeouts.
  await seed('edge', 1, false, acceptedAt);
  await seed('timeouts', 2 * claimBatchSize + 100, true, acceptedAt + 1);
  await seed('waits', 10, false, acceptedAt + 2 * claimBatchSize + 101);
  await waitFor(
    async () => Date.now(),
    (now) => now > acceptedAt + 2 * claimBatchSize + 111,
  );
  expect(journeysOf(await new DueBacklog(harness.ingress.context, claimBatchSize).nextBatch())).toEqual([
    'edge',
    ...Array(10).fill('waits'),
  ]);

  await job.remove();
  const released = await new DueBacklog(harness.ingress.context, 4 * claimBatchSize).nextBatch();
  expect(journeysOf(released)).toEqual(['edge', ...Array(claimBatchSize - 1).fill('timeouts')]);
});

/** An event of the project accepted and not ingested, and a seeder of its travellers due from a time on. */
async function laggingProject(projectId = 'lagging') {
  const job = await harness.ingress.context.queues.eventIngest.add(eventIngestJobName(projectId), {
    projectId,
    receivedAt: new Date().toISOString(),
    events: [],
  });
  const seed = (journeyId: string, count: number, listening: boolean, dueFrom: number) =>
    models().JourneyTraveller.insertMany(
      Array.from({ length: count }, (_, index) => ({
        ...seededTraveller(
          {
            projectId,
            journeyId,
            subjectId: `${journeyId}-${index}`,
            event: 'enter',
            at: 'gate',
            dueAt: new Date(dueFrom + index),
          },
          new Date(job.timestamp),
        ),
        listening: listening ? { stepId: 'gate', event: 'reported', since: new Date(job.timestamp - 60_000) } : null,
      })),
      { lean: true },
    );
  return { job, seed };
}

/**
 * Counts the reads past waiting timeouts while `run` runs, each taking a second of the test's clock, which only the
 * test moves further.
 */
async function withReadsPast(run: (readsPast: () => number) => Promise<void>) {
  const model = models().JourneyTraveller;
  const real = model.find;
  let readsPast = 0;
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  model.find = ((filter: { dueAt?: { $gte?: Date } }, ...rest: unknown[]) => {
    if (filter?.dueAt?.$gte) {
      readsPast += 1;
      vi.setSystemTime(Date.now() + 1000);
    }
    return (real as (...args: unknown[]) => unknown).call(model, filter, ...rest);
  }) as typeof real;
  try {
    await run(() => readsPast);
  } finally {
    model.find = real;
    vi.useRealTimers();
  }
}

const journeysOf = (batch: Array<{ _id: string }>) => batch.map(({ _id }) => _id.split(':')[0]);

/**
 * While ingestion lags, waiting timeouts can be most of what is due: a read past them that found less than a batch to
 * run is not made again until four times as long as it took has passed, and a due step among them is handed out by a
 * later read.
 */
it('reads past waiting timeouts again only after a while, then hands out the steps due among them', async () => {
  await models().JourneyTraveller.deleteMany({});
  const { job, seed } = await laggingProject();
  await seed('timeouts', 10 * claimBatchSize, true, job.timestamp + 1);
  await withReadsPast(async (readsPast) => {
    const backlog = new DueBacklog(harness.ingress.context, 20 * claimBatchSize);
    expect(await backlog.nextBatch()).toEqual([]);
    const pastFirst = readsPast();
    expect(pastFirst).toBeGreaterThan(0);
    await seed('waits', 10, false, Date.now() - 10);
    expect(await backlog.nextBatch()).toEqual([]);
    expect(readsPast()).toBe(pastFirst);
    vi.setSystemTime(Date.now() + 5000);
    const handedOut = await waitFor(
      () => backlog.nextBatch(),
      (batch) => batch.length > 0,
      90_000,
    );
    expect(journeysOf(handedOut)).toEqual(Array(10).fill('waits'));
  });
  await job.remove();
}, 120_000);

/** A read past waiting timeouts that found a batch to run is made again as soon as that is handed out. */
it('reads past waiting timeouts again at once when the last read past found a batch to run', async () => {
  await models().JourneyTraveller.deleteMany({});
  const { job, seed } = await laggingProject();
  await seed('timeouts', 2 * claimBatchSize, true, job.timestamp + 1);
  await seed('busy', claimBatchSize, false, job.timestamp + 2 * claimBatchSize + 1);
  await withReadsPast(async (readsPast) => {
    vi.setSystemTime(Math.max(Date.now(), job.timestamp + 4 * claimBatchSize));
    const backlog = new DueBacklog(harness.ingress.context, 20 * claimBatchSize);
    expect(journeysOf(await backlog.nextBatch())).toEqual(Array(claimBatchSize).fill('busy'));
    const pastFirst = readsPast();
    // Their steps run, they move on; more fall due among the waiting timeouts.
    await models().JourneyTraveller.deleteMany({ journeyId: 'busy' });
    await seed('more', 10, false, Date.now() - 100);
    expect(journeysOf(await backlog.nextBatch())).toEqual([...Array(10).fill('more')]);
    expect(readsPast()).toBeGreaterThan(pastFirst);
  });
  await job.remove();
}, 120_000);
