import type { Redis } from 'ioredis';
import type { Models } from '../models/index.ts';
import type { EventDocument } from '../models/event.ts';
import type { EventCounterDocument } from '../models/event-counter.ts';
import { duplicateKeyPositions } from '../infra/bulk-write-errors.ts';
import { withRedisLock } from '../infra/redis-lock.ts';
import type { EventIngestJob, IngestedEvent } from './ingest-job.ts';
import type { EventTypeCatalog } from './event-type-catalog.ts';
import { toStoredData } from './event-data.ts';
import { startOfUtcDay } from './utc-day.ts';

type StoredEvent = EventDocument & { _id: string };

interface Subjects {
  userOfDevice: Map<string, string | null>;
  devicesOfUser: Map<string, string[]>;
}

/** One query for all the devices and users the job's events name. */
async function resolveSubjects(models: Models, projectId: string, events: IngestedEvent[]): Promise<Subjects> {
  const deviceIds = new Set<string>();
  const userIds = new Set<string>();
  for (const event of events) (event.subjectType === 'device' ? deviceIds : userIds).add(event.subjectId);
  const clauses = [];
  if (deviceIds.size > 0) clauses.push({ deviceId: { $in: [...deviceIds] } });
  if (userIds.size > 0) clauses.push({ userId: { $in: [...userIds] } });
  const devices = await models.Device.find({ projectId, $or: clauses }, { _id: 0, deviceId: 1, userId: 1 }).lean();
  const subjects: Subjects = { userOfDevice: new Map(), devicesOfUser: new Map() };
  for (const device of devices) {
    subjects.userOfDevice.set(device.deviceId, device.userId ?? null);
    if (device.userId === null || device.userId === undefined || !userIds.has(device.userId)) continue;
    const list = subjects.devicesOfUser.get(device.userId) ?? [];
    list.push(device.deviceId);
    subjects.devicesOfUser.set(device.userId, list);
  }
  return subjects;
}

function toStoredEvent(jobId: string, index: number, projectId: string, receivedAt: Date, event: IngestedEvent, subjects: Subjects): StoredEvent {
  const isDevice = event.subjectType === 'device';
  return {
    _id: `${jobId}:${String(index).padStart(3, '0')}`,
    projectId,
    type: event.type,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    userId: isDevice ? (subjects.userOfDevice.get(event.subjectId) ?? null) : event.subjectId,
    deviceIds: isDevice ? [event.subjectId] : (subjects.devicesOfUser.get(event.subjectId) ?? []),
    data: toStoredData(event.data),
    receivedAt,
  };
}

/** Inserts the events; those an earlier attempt of the job already stored are refused by _id and skipped. */
async function insertEvents(models: Models, events: StoredEvent[]): Promise<void> {
  try {
    await models.Event.collection.insertMany(events as never[], { ordered: false });
  } catch (error) {
    if (duplicateKeyPositions(error) === null) throw error;
  }
}

type CounterKey = Pick<EventCounterDocument, 'projectId' | 'subjectType' | 'subjectId' | 'type' | 'day'>;

/** Daily counters per device and per user, merged in memory so that one job makes one write per counter. */
function counterIncrements(events: StoredEvent[]): Array<{ key: CounterKey; count: number }> {
  const increments = new Map<string, { key: CounterKey; count: number }>();
  const bump = (key: CounterKey) => {
    const id = [key.subjectType, key.subjectId, key.type, key.day.getTime()].join('\u0000');
    const entry = increments.get(id);
    if (entry) entry.count += 1;
    else increments.set(id, { key, count: 1 });
  };
  for (const event of events) {
    const base = { projectId: event.projectId, type: event.type, day: startOfUtcDay(event.receivedAt) };
    for (const deviceId of event.deviceIds) bump({ ...base, subjectType: 'device', subjectId: deviceId });
    if (event.userId !== null && event.userId !== undefined) bump({ ...base, subjectType: 'user', subjectId: event.userId });
  }
  return [...increments.values()];
}

export interface IngestDeps {
  models: Models;
  redis: Redis;
  queuePrefix: string;
  catalog: EventTypeCatalog;
}

const counterLockOptions = { leaseMs: 30_000, waitMs: 60_000 };
const appliedMarkerSeconds = 7 * 24 * 3600;

/**
 * FerretDB 1.x loses one of two concurrent $inc on a document, so the counter writes of one project are serialized
 * by a Redis lock (the events themselves are inserted in parallel). A marker per job, checked under the lock, keeps
 * a retried job from counting its events twice.
 */
async function incrementCounters(deps: IngestDeps, projectId: string, jobId: string, events: StoredEvent[]): Promise<void> {
  const operations = counterIncrements(events).map(({ key, count }) => ({
    updateOne: { filter: key, update: { $inc: { count } }, upsert: true },
  }));
  if (operations.length === 0) return;
  const marker = `${deps.queuePrefix}:event-counters-applied:${jobId}`;
  await withRedisLock(deps.redis, `${deps.queuePrefix}:lock:event-counters:${projectId}`, async () => {
    if ((await deps.redis.exists(marker)) === 1) return;
    await deps.models.EventCounter.collection.bulkWrite(operations, { ordered: false });
    await deps.redis.set(marker, '1', 'EX', appliedMarkerSeconds);
  }, counterLockOptions);
}

/**
 * Stores one request's events in a few round trips whatever their number: the subjects in one query, the events in
 * one insertMany, the daily counters in one bulkWrite, and the catalog only for types this worker has not seen.
 * Every step is safe to repeat, so a failed job is simply retried.
 */
export async function ingestEvents(deps: IngestDeps, jobId: string, job: EventIngestJob): Promise<void> {
  const receivedAt = new Date(job.receivedAt);
  const subjects = await resolveSubjects(deps.models, job.projectId, job.events);
  const events = job.events.map((event, index) => toStoredEvent(jobId, index, job.projectId, receivedAt, event, subjects));
  await insertEvents(deps.models, events);
  await incrementCounters(deps, job.projectId, jobId, events);
  await deps.catalog.add(job.projectId, job.events.map((event) => event.type), 'auto');
}
