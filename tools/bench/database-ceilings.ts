/**
 * Ceilings of the database operations the benchmarks are dominated by, measured with the raw `mongodb` driver (the
 * bench's own mongoose connection's collections: same server, same pool size, same write concern, `j: true`, as the
 * product) at the concurrency the benchmark gives, or at several with bestCeiling. Each function runs for a fixed time
 * or a fixed number of operations and answers operations (or documents) per second; a benchmark prints its own figure
 * divided by it.
 *
 * The product pays HTTP, queues and its own processes on the same two cores as the database, so a ratio below 1 is
 * expected; what the ratio shows is how much of what the database can do the product gets.
 */
import { randomBytes } from 'node:crypto';
import type { Collection, Db, Document, IndexSpecification, CreateIndexesOptions } from 'mongodb';
import type { Models } from '../../src/models/index.ts';
import { deviceKey } from '../../src/models/device.ts';
import { historyKey, historyRetentionSeconds } from '../../src/models/history.ts';

export interface Ceiling {
  /** What was measured, e.g. "raw findOne by _id on devices". */
  operation: string;
  concurrency: number;
  /** Operations completed (a batch insert counts as one operation). */
  operations: number;
  /** Documents read or written, for the batch operations; equal to operations otherwise. */
  documents: number;
  seconds: number;
  /** Operations per second, or documents per second for the batch inserts. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** For bestCeiling: every concurrency tried, of which this is the fastest. */
  tried?: Array<{ concurrency: number; perSecond: number; p99Ms: number }>;
}

export interface RunLimit {
  concurrency: number;
  /** Stop after this many seconds ... */
  seconds?: number;
  /** ... or after this many operations, whichever comes first. */
  operations?: number;
}

const log = (line: string) => process.stderr.write(`[ceiling] ${line}\n`);

/** The value at `fraction` of the sorted values, to two decimals; 0 for none. */
export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!.toFixed(2));
}

/** Runs `operation` from `concurrency` lanes until the time or the operation count is spent. */
export async function runLanes(
  operation: string,
  limit: RunLimit,
  documentsPerOperation: number,
  run: (index: number) => Promise<unknown>,
): Promise<Ceiling> {
  const deadline = limit.seconds === undefined ? Infinity : performance.now() + limit.seconds * 1000;
  const maxOperations = limit.operations ?? Infinity;
  if (deadline === Infinity && maxOperations === Infinity) throw new Error('a ceiling needs seconds or operations');
  // Latencies kept in a preallocated typed array: a long run must not grow the heap the product figure shared.
  const latencies = new Float64Array(Math.min(maxOperations === Infinity ? 2_000_000 : maxOperations, 2_000_000));
  let started = 0;
  let completed = 0;
  const startedAt = performance.now();
  async function lane(): Promise<void> {
    while (started < maxOperations && performance.now() < deadline) {
      const index = started++;
      const before = performance.now();
      await run(index);
      if (completed < latencies.length) latencies[completed] = performance.now() - before;
      completed++;
    }
  }
  await Promise.all(Array.from({ length: limit.concurrency }, lane));
  const seconds = (performance.now() - startedAt) / 1000;
  const sorted = Array.from(latencies.subarray(0, Math.min(completed, latencies.length))).sort((a, b) => a - b);
  const ceiling: Ceiling = {
    operation,
    concurrency: limit.concurrency,
    operations: completed,
    documents: completed * documentsPerOperation,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Math.round((completed * documentsPerOperation) / seconds),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
  };
  log(
    `${operation}: ${ceiling.perSecond}/s at concurrency ${limit.concurrency} (${completed} operations in ${ceiling.seconds} s, p50 ${ceiling.p50Ms} ms, p99 ${ceiling.p99Ms} ms)`,
  );
  return ceiling;
}

/**
 * The fastest of a ceiling measured at each concurrency in turn: the server's best is the ceiling, whatever the
 * product's own concurrency.
 */
export async function bestCeiling(
  concurrencies: number[],
  measure: (concurrency: number) => Promise<Ceiling>,
): Promise<Ceiling> {
  const ceilings: Ceiling[] = [];
  for (const concurrency of concurrencies) ceilings.push(await measure(concurrency));
  const best = ceilings.reduce((fastest, ceiling) => (ceiling.perSecond > fastest.perSecond ? ceiling : fastest));
  const tried = ceilings.map(({ concurrency, perSecond, p99Ms }) => ({ concurrency, perSecond, p99Ms }));
  return { ...best, tried };
}

const randomIndex = (count: number) => Math.floor(Math.random() * count);

/** Raw findOne by _id on devices, devices picked at random among device-0 … device-(deviceCount-1) (device reads). */
export function deviceFindOneCeiling(
  models: Models,
  projectId: string,
  deviceCount: number,
  limit: RunLimit,
): Promise<Ceiling> {
  const devices = models.Device.collection;
  return runLanes('raw findOne by _id on devices', limit, 1, () =>
    devices.findOne({ _id: deviceKey(projectId, `device-${randomIndex(deviceCount)}`) } as Document),
  );
}

/** Raw updateOne by _id with a $set of one tag (and updatedAt), devices at random (registrations). */
export function deviceUpdateOneCeiling(
  models: Models,
  projectId: string,
  deviceCount: number,
  limit: RunLimit,
): Promise<Ceiling> {
  const devices = models.Device.collection;
  return runLanes('raw updateOne by _id $set of a tag on devices', limit, 1, (index) =>
    devices.updateOne({ _id: deviceKey(projectId, `device-${randomIndex(deviceCount)}`) } as Document, {
      $set: { 'tags.visits': index, updatedAt: new Date() },
    }),
  );
}

/** The devices of a user picked at random among user-0 … user-(userCount-1), found raw by {projectId, userId}. */
async function randomUserDevices(models: Models, projectId: string, userCount: number) {
  const userId = `user-${randomIndex(userCount)}`;
  return { userId, devices: await models.Device.collection.find({ projectId, userId }).toArray() };
}

/** Raw find of every device of a user by {projectId, userId} (tags by user). */
export function devicesByUserCeiling(models: Models, projectId: string, userCount: number, limit: RunLimit) {
  return runLanes('raw find by {projectId, userId} on devices', limit, 1, () =>
    randomUserDevices(models, projectId, userCount),
  );
}

/**
 * The database work of one tag update by userId, raw: the find of the user's devices by {projectId, userId}, then for
 * each an updateOne by _id, userId and the revision read, setting two tags and incrementing the revision (what
 * applyUserTags sends). Answers updates of a user per second.
 */
export function userTagUpdateCeiling(models: Models, projectId: string, userCount: number, limit: RunLimit) {
  const label = 'raw find by {projectId, userId}, then a guarded updateOne of each device';
  return runLanes(label, limit, 1, async (index) => {
    const { userId, devices } = await randomUserDevices(models, projectId, userCount);
    for (const device of devices) {
      await models.Device.collection.updateOne(
        { _id: device._id, userId, revision: device.revision ?? null },
        { $set: { 'tags.plan': 'team', 'tags.visits': index }, $inc: { revision: 1 } },
      );
    }
  });
}

/** One raw countDocuments of a device filter, run `limit.operations` times (segment previews). */
export function deviceCountCeiling(models: Models, filter: Document, limit: RunLimit): Promise<Ceiling> {
  const devices = models.Device.collection;
  return runLanes('raw countDocuments on devices', limit, 1, () => devices.countDocuments(filter));
}

/**
 * The first batch of a raw cursor over a device filter in _id order, with the fields a send reads, as a segment send
 * reads its audience (1,000 a batch), run `limit.operations` times: how soon the server lets any send start. Answers
 * the time in p50Ms and p99Ms.
 */
export function deviceFirstBatchCeiling(
  models: Models,
  filter: Document,
  projection: Document,
  limit: RunLimit,
): Promise<Ceiling> {
  const devices = models.Device.collection;
  return runLanes('raw first batch of a find in _id order on devices', limit, 1, async () => {
    const cursor = devices.find(filter, { projection }).sort({ _id: 1 }).batchSize(1000);
    await cursor.hasNext();
    await cursor.close();
  });
}

/** A scratch collection with the given indexes, dropped by the returned function. */
export async function scratchCollection(
  db: Db,
  base: string,
  indexes: Array<[IndexSpecification, CreateIndexesOptions?]>,
): Promise<{ collection: Collection<Document>; drop: () => Promise<void> }> {
  const name = `${base}_ceiling_${randomBytes(3).toString('hex')}`;
  const collection = await db.createCollection(name);
  for (const [keys, options] of indexes) await collection.createIndex(keys, options ?? {});
  return { collection, drop: async () => void (await collection.drop().catch(() => false)) };
}

export interface BatchInsertLimit extends RunLimit {
  batchSize?: number;
}

/** A scratch collection with the history collection's indexes ({projectId, deviceId, sentAt: -1, _id: -1}, TTL on sentAt). */
const historyScratchCollection = (db: Db) =>
  scratchCollection(db, 'history', [
    [{ projectId: 1, deviceId: 1, sentAt: -1, _id: -1 }],
    [{ sentAt: 1 }, { expireAfterSeconds: historyRetentionSeconds }],
  ]);

/** History documents as the deliver worker writes them, one per device, with _id `<notificationId>:<deviceId>`. */
function historyDocuments(projectId: string, notificationId: string, createdAt: Date, deviceIds: string[]) {
  const sentAt = new Date();
  return deviceIds.map((deviceId, offset) => ({
    _id: historyKey(notificationId, deviceId),
    projectId,
    deviceId,
    notificationId,
    notification: {
      id: notificationId,
      createdAt,
      title: `Hello User ${offset}`,
      body: 'News from Seoul',
      url: null,
      imageUrl: null,
    },
    sentAt,
  }));
}

/**
 * Raw insertMany, unordered, of history-shaped documents in batches of 100 into a scratch collection with the history
 * collection's indexes, dropped afterwards: what each push costs the deliver worker. Answers documents per second.
 */
export async function historyInsertCeiling(db: Db, projectId: string, limit: BatchInsertLimit): Promise<Ceiling> {
  const batchSize = limit.batchSize ?? 100;
  const { collection, drop } = await historyScratchCollection(db);
  const notificationId = randomBytes(12).toString('hex');
  const createdAt = new Date();
  try {
    return await runLanes(
      `raw insertMany of history documents in batches of ${batchSize}`,
      limit,
      batchSize,
      (batch) => {
        const deviceIds = Array.from({ length: batchSize }, (_, offset) => `device-${batch * batchSize + offset}`);
        const documents = historyDocuments(projectId, notificationId, createdAt, deviceIds);
        return collection.insertMany(documents as never[], { ordered: false });
      },
    );
  } finally {
    await drop();
  }
}

/**
 * The database work of a send to 100 users, raw: the find of their devices by {projectId, userId: {$in}} (as the send
 * worker sends it), then an unordered insertMany of a history document per device found into a scratch collection
 * with the history collection's indexes. For a project seeded with one device per user, user-0 … user-(userCount-1),
 * so each operation delivers usersPerSend devices. Answers deliveries per second: what the server allows a send by
 * userId before the product spends anything on notifications, queues or gateways.
 */
export async function sendToUsersCeiling(
  models: Models,
  projectId: string,
  userCount: number,
  limit: RunLimit & { usersPerSend: number },
): Promise<Ceiling> {
  const devices = models.Device.collection;
  const { collection, drop } = await historyScratchCollection(models.History.db.db!);
  const createdAt = new Date();
  try {
    return await runLanes(
      `raw find of ${limit.usersPerSend} users' devices by $in, then insertMany of their history`,
      limit,
      limit.usersPerSend,
      async () => {
        const first = randomIndex(Math.max(1, userCount - limit.usersPerSend));
        const userIds = Array.from({ length: limit.usersPerSend }, (_, offset) => `user-${first + offset}`);
        const found = await devices
          .find({ projectId, userId: { $in: userIds } }, { projection: { deviceId: 1 } })
          .toArray();
        const deviceIds = found.map((device) => String(device.deviceId));
        const documents = historyDocuments(projectId, randomBytes(12).toString('hex'), createdAt, deviceIds);
        if (documents.length > 0) await collection.insertMany(documents as never[], { ordered: false });
      },
    );
  } finally {
    await drop();
  }
}

/**
 * Raw insertMany, unordered, of event-shaped documents (as the event-ingest worker stores them, 100 per request) into
 * a scratch collection with the events collection's indexes, dropped afterwards. Answers documents per second.
 */
export async function eventInsertCeiling(db: Db, projectId: string, limit: BatchInsertLimit): Promise<Ceiling> {
  const batchSize = limit.batchSize ?? 100;
  const { collection, drop } = await scratchCollection(db, 'events', [
    [{ projectId: 1, receivedAt: -1, _id: -1 }],
    [{ projectId: 1, type: 1, receivedAt: -1, _id: -1 }],
    [{ projectId: 1, subjectType: 1, subjectId: 1, receivedAt: -1, _id: -1 }],
    [{ projectId: 1, subjectType: 1, subjectId: 1, type: 1, receivedAt: -1, _id: -1 }],
  ]);
  const types = ['purchase', 'view', 'add_to_cart', 'search', 'login'];
  const prefix = randomBytes(4).toString('hex');
  try {
    return await runLanes(`raw insertMany of event documents in batches of ${batchSize}`, limit, batchSize, (batch) => {
      const receivedAt = new Date();
      const documents = Array.from({ length: batchSize }, (_, index) => {
        const user = randomIndex(1000);
        const onDevice = index % 2 === 0;
        return {
          _id: `${prefix}-${batch}:${String(index).padStart(3, '0')}`,
          projectId,
          type: types[index % types.length],
          subjectType: onDevice ? 'device' : 'user',
          subjectId: onDevice ? `device-${user * 2}` : `user-${user}`,
          data: {
            amount: Math.round(Math.random() * 10_000) / 100,
            sku: `sku-${index}`,
            at: receivedAt.toISOString(),
            tags: ['a', 'b'],
          },
          receivedAt,
        };
      });
      return collection.insertMany(documents as never[], { ordered: false });
    });
  } finally {
    await drop();
  }
}

/** product / ceiling, two decimals (0 when the ceiling is 0). */
export function ratio(product: number, ceiling: number): number {
  return ceiling > 0 ? Number((product / ceiling).toFixed(2)) : 0;
}

export interface TargetCheck {
  target: string;
  value: number;
  met: boolean;
}

/** Records a target and prints whether it is met, on stderr so that --json keeps stdout to one line. */
export function checkTarget(target: string, value: number, met: boolean): TargetCheck {
  process.stderr.write(`[target] ${met ? 'MET    ' : 'MISSED '} ${target}: ${value}\n`);
  return { target, value, met };
}
