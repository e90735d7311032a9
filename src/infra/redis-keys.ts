import type { QueueName } from './queue-names.ts';

/**
 * Every Redis key of the product, BullMQ's queues included, built from the configured prefix in this one place.
 *
 * Each key carries a Redis Cluster hash tag (the part in braces decides the slot). Keys that one command, script or
 * transaction touches together share a tag: a queue's keys, a project's event counts, the two metrics hashes. Keys
 * that are never used together get tags of their own (per project, per queue, per job), so a cluster spreads them
 * over its masters instead of piling everything into one slot. On a single Redis the braces are just characters.
 */
/**
 * The hash tag of each queue's keys. BullMQ's scripts touch many keys of a queue at once, and a send job is the
 * BullMQ parent of its deliver jobs, so adding a deliver batch also touches the send queue: those two share a tag.
 */
const queueTags: Record<QueueName, string> = {
  send: 'delivery',
  deliver: 'delivery',
  'tag-update': 'tag-update',
  'event-ingest': 'event-ingest',
  maintenance: 'maintenance',
  webhook: 'webhook',
  'device-import': 'device-import',
};

export const redisKeys = {
  /** BullMQ's prefix for one queue. */
  queuePrefix: (prefix: string, queue: QueueName) => `${prefix}:{${queueTags[queue]}}`,
  apiKey: (prefix: string, keyHash: string) => `${prefix}:apikey:{${keyHash}}`,
  rateLimit: (prefix: string, projectId: string) => `${prefix}:ratelimit:{${projectId}}`,
  idempotency: (prefix: string, projectId: string, keyDigest: string) =>
    `${prefix}:idempotency:{${projectId}}:${keyDigest}`,
  /** The ingest job an events request with an Idempotency-Key made: the server's, or one device's through the SDK. */
  eventsIdempotency: (prefix: string, projectId: string, deviceId: string | null, keyDigest: string) =>
    `${prefix}:events-idempotency:{${projectId}}:${deviceId ?? ''}:${keyDigest}`,
  deliveryRate: (prefix: string, projectId: string) => `${prefix}:delivery-rate:{${projectId}}`,
  /**
   * One bucket of a project's devices' pushes within the frequency-cap window. One script admits a whole batch, so all
   * of a project's buckets share the project's tag.
   */
  frequencyCap: (prefix: string, projectId: string, bucket: number) => `${prefix}:cap:{${projectId}}:${bucket}`,
  /** A send's own throttle (throttlePerMinute), beside its project's delivery rate. */
  sendThrottle: (prefix: string, projectId: string, notificationId: string) =>
    `${prefix}:send-throttle:{${projectId}}:${notificationId}`,
  /** BullMQ's lock of a job being run (the `lock` key its scripts take), named from the job's own queue name. */
  jobLock: (queueQualifiedName: string, jobId: string) => `${queueQualifiedName}:${jobId}:lock`,
  journeysVersion: (prefix: string, projectId: string) => `${prefix}:journeys-version:{${projectId}}`,
  /** Written in one MULTI per delivery batch. */
  deliveryCounts: (prefix: string) => `${prefix}:metrics:{metrics}:deliveries`,
  webhookCalls: (prefix: string) => `${prefix}:metrics:{metrics}:webhook-calls`,
  /** An endpoint's most recent call attempts, newest first. */
  webhookAttempts: (prefix: string, endpointId: string) => `${prefix}:webhook-attempts:{${endpointId}}`,
  gatewayLatency: (prefix: string) => `${prefix}:metrics:{metrics}:gateway-latency`,
  /** A project's event counts: recorded with a job's marker in one script, then renamed and flushed together. */
  eventCounts: (prefix: string, projectId: string) => {
    const tag = `{${projectId}}`;
    return {
      pending: `${prefix}:event-counts:pending:${tag}`,
      flushing: `${prefix}:event-counts:flushing:${tag}`,
      /** The oldest day (midnight UTC, in milliseconds) with counts in pending, and in flushing. */
      oldestPendingDay: `${prefix}:event-counts:oldest-pending-day:${tag}`,
      oldestFlushingDay: `${prefix}:event-counts:oldest-flushing-day:${tag}`,
      flushSequence: `${prefix}:event-counts:flush-sequence:${tag}`,
      flushGate: `${prefix}:event-counts:flush-gate:${tag}`,
      flushLock: `${prefix}:event-counts:flush-lock:${tag}`,
      recorded: (jobId: string) => `${prefix}:event-counts:recorded:${tag}:${jobId}`,
    };
  },
  /** The pattern that finds the projects with counts of this kind, and the project id back from a key it found. */
  eventCountsSearch: (prefix: string, kind: 'pending' | 'flushing') => {
    const start = `${prefix}:event-counts:${kind}:{`;
    return { match: `${start}*}`, projectIdOf: (key: string) => key.slice(start.length, -1) };
  },
};
