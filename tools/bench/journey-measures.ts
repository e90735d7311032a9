import type { Db } from 'mongodb';
import type { Models } from '../../src/models/index.ts';
import type { RedisClient } from '../../src/infra/redis.ts';
import type { PassedStep } from '../../src/models/journey-traveller.ts';
import { percentile } from './database-ceilings.ts';

/** The benchmark's journey (issue 47's targets): wait → push → waitForEvent (the reporters leave) → push to the rest. */
export const benchJourney = (waitSeconds: number, awaitSeconds: number) => ({
  name: 'bench',
  status: 'active',
  entry: { event: 'bench_enter' },
  steps: [
    { id: 'wait', type: 'wait', seconds: waitSeconds },
    { id: 'first', type: 'push', title: 'Your cart', body: 'Still thinking about it?' },
    {
      id: 'await',
      type: 'waitForEvent',
      event: 'bench_report',
      timeoutSeconds: awaitSeconds,
      onEvent: 'exit',
      onTimeout: 'reminder',
    },
    { id: 'reminder', type: 'push', title: 'Your cart', body: 'It is still there' },
  ],
});

export const usedMemory = async (redis: RedisClient) =>
  Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);

/** The travellers' collection on the server: its documents, their data, the storage they take and their indexes. */
export async function travellerStorage(db: Db) {
  const stats = await db.command({ collStats: 'journey_travellers' });
  return {
    documents: Number(stats.count ?? 0),
    dataBytes: Number(stats.size ?? 0),
    storageBytes: Number(stats.storageSize ?? 0),
    indexBytes: Number(stats.totalIndexSize ?? 0),
  };
}

const toSeconds = (ms: number) => Number((ms / 1000).toFixed(2));
const p = (values: number[], fraction: number) =>
  values.length === 0
    ? 0
    : toSeconds(
        percentile(
          [...values].sort((a, b) => a - b),
          fraction,
        ),
      );
export const distribution = (values: number[]) => ({
  count: values.length,
  p50: p(values, 0.5),
  p99: p(values, 0.99),
  max: p(values, 1),
});

/** A push step's deliveries/s: its receipts over the time from its travellers' first due time to the last of them. */
export const deliveriesPerSecond = (receipts: number[], dueFrom: number) =>
  receipts.length === 0 ? 0 : Math.round(receipts.length / ((Math.max(...receipts) - dueFrom) / 1000));

/**
 * Each traveller's step times, read once at the end: how late each step ran against its due time (a wait's end; a
 * step following another at once is due when that one ran; the waitForEvent's timeout is due its seconds after the
 * push before it ran, so that figure also holds the await step's own start), the time from its entry event's
 * acceptance to its first step, and the pushes each subject was sent.
 */
export async function travellerTimes(
  models: Models,
  filter: { journeyId: string } | { _id: { $gte: string; $lt: string } },
  awaitSeconds: number,
  acceptedAt: (subjectId: string) => number | undefined,
) {
  const lateness = { first: [] as number[], timeout: [] as number[], reminder: [] as number[] };
  const firstStep: number[] = [];
  const pushesOf = new Map<string, number>();
  let heard = 0;
  let completed = 0;
  const dueFrom = { first: Number.POSITIVE_INFINITY, reminder: Number.POSITIVE_INFINITY };
  const cursor = models.JourneyTraveller.find(filter, { subjectId: 1, passed: 1, state: 1 })
    .lean<Array<{ subjectId: string; passed: PassedStep[]; state: string }>>()
    .cursor({ batchSize: 5000 });
  for await (const traveller of cursor) {
    const step = new Map(traveller.passed.map((passed) => [passed.stepId, passed]));
    const at = (id: string) => step.get(id)?.at.getTime();
    const wait = step.get('wait');
    const accepted = acceptedAt(traveller.subjectId);
    if (wait && accepted !== undefined) firstStep.push(wait.at.getTime() - accepted);
    const [first, awaited, reminder] = [at('first'), at('await'), at('reminder')];
    const waited = wait && Date.parse(wait.outcome.until as string);
    if (waited) dueFrom.first = Math.min(dueFrom.first, waited);
    if (waited && first !== undefined) lateness.first.push(first - waited);
    if (first !== undefined && awaited !== undefined && step.get('await')!.outcome.timedOut)
      lateness.timeout.push(awaited - first - awaitSeconds * 1000);
    if (awaited !== undefined && reminder !== undefined) {
      lateness.reminder.push(reminder - awaited);
      dueFrom.reminder = Math.min(dueFrom.reminder, awaited);
    }
    if (step.get('await')?.outcome.heard) heard++;
    if (traveller.state === 'done') completed++;
    pushesOf.set(traveller.subjectId, (first === undefined ? 0 : 1) + (reminder === undefined ? 0 : 1));
  }
  return { lateness, firstStep, pushesOf, heard, completed, dueFrom };
}

/**
 * Requests of `size` items, `inFlight` at once, each answered before the next of its lane; failures are counted. With
 * `perSecond`, the request holding item k starts no earlier than k / perSecond seconds after the first.
 */
export async function inRequests<T>(
  items: T[],
  size: number,
  inFlight: number,
  post: (chunk: T[]) => Promise<void>,
  perSecond = 0,
): Promise<void> {
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < items.length) {
        const start = next;
        next += size;
        const due = perSecond > 0 ? started + (start / perSecond) * 1000 : 0;
        if (due > Date.now()) await new Promise((done) => setTimeout(done, due - Date.now()));
        await post(items.slice(start, start + size));
      }
    }),
  );
}
