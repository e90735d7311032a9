import type { QueueName } from './queue-names.ts';

/**
 * Every Redis key of the product, BullMQ's queues included, built from the configured prefix in this one place.
 *
 * Each key carries a Redis Cluster hash tag (the part in braces decides the slot). Keys that one command, script or
 * transaction touches together share a tag: a queue's keys, a project's event counts, a deliver job and the delivery
 * metrics. Keys that are never used together get tags of their own (per project, per queue, per job), so a cluster
 * spreads them over its masters instead of piling everything into one slot. On a single Redis the braces are just
 * characters.
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
  'journey-steps': 'journey-steps',
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
  /** Held while a project's bounded resource (`webhooks`, `active-in-app`) is counted and written, so none exceeds its bound. */
  projectLimit: (prefix: string, projectId: string, resource: string) =>
    `${prefix}:project-limit:{${projectId}}:${resource}`,
  journeysVersion: (prefix: string, projectId: string) => `${prefix}:journeys-version:{${projectId}}`,
  /**
   * A due traveller's step run held by a step runner (traveller-claims.ts). A claim's keys are one script's, so they
   * share the journey-steps queue's tag.
   */
  journeyClaim: (prefix: string, travellerId: string) =>
    `${prefix}:journey-claim:{${queueTags['journey-steps']}}:${travellerId}`,
  /** A journey's counts (CONTRACTS §18), one hash of HINCRBY fields, so that no document is their meeting point. */
  journeyStats: (prefix: string, journeyId: string) => `${prefix}:journey-stats:{${journeyId}}`,
  /**
   * The delivery metrics: written with a gateway call's progress in one script on its job's hash, so they share the
   * deliver queue's tag.
   */
  deliveryCounts: (prefix: string) => `${prefix}:metrics:{${queueTags.deliver}}:deliveries`,
  webhookCalls: (prefix: string) => `${prefix}:metrics:{metrics}:webhook-calls`,
  /** An endpoint's most recent call attempts, newest first. */
  webhookAttempts: (prefix: string, endpointId: string) => `${prefix}:webhook-attempts:{${endpointId}}`,
  /** A notification's delivery jobs waiting as delayed work: job id → how many devices, why, until when. */
  waitingPushes: (prefix: string, projectId: string, notificationId: string) =>
    `${prefix}:waiting-pushes:{${projectId}}:${notificationId}`,
  /**
   * The devices a notification's delivery runs refused and handed off to be written together (handed-refusals.ts), one
   * field per hand-off, and what one refusal-writes job took of them. Taken by a rename: both share the tag.
   */
  handedRefusals: (prefix: string, notificationId: string) => ({
    pending: `${prefix}:refusals:{${notificationId}}`,
    taken: (jobId: string) => `${prefix}:refusals:{${notificationId}}:taken:${jobId}`,
  }),
  /** The notifications of a project with pushes held for its quiet hours, which a settings change re-times. */
  quietHeld: (prefix: string, projectId: string) => `${prefix}:quiet-held:{${projectId}}`,
  /** The webhook jobs running for an endpoint, by holder, each scored by when its lease ends. */
  webhookSlots: (prefix: string, endpointId: string) => `${prefix}:webhook-slots:{${endpointId}}`,
  gatewayLatency: (prefix: string) => `${prefix}:metrics:{${queueTags.deliver}}:gateway-latency`,
  /**
   * A project's counts of one kind gathered in Redis (gathered-counts.ts): recorded with a caller's marker in one
   * script, then renamed and flushed together, so they share the project's tag. `kind` names the counts
   * (`event-counts`, `daily-counts`).
   */
  gatheredCounts: (prefix: string, kind: string, projectId: string) => {
    const tag = `{${projectId}}`;
    return {
      pending: `${prefix}:${kind}:pending:${tag}`,
      flushing: `${prefix}:${kind}:flushing:${tag}`,
      /** The oldest day (midnight UTC, in milliseconds) with counts in pending, and in flushing. */
      oldestPendingDay: `${prefix}:${kind}:oldest-pending-day:${tag}`,
      oldestFlushingDay: `${prefix}:${kind}:oldest-flushing-day:${tag}`,
      flushSequence: `${prefix}:${kind}:flush-sequence:${tag}`,
      flushGate: `${prefix}:${kind}:flush-gate:${tag}`,
      flushLock: `${prefix}:${kind}:flush-lock:${tag}`,
      recorded: (marker: string) => `${prefix}:${kind}:recorded:${tag}:${marker}`,
    };
  },
  /**
   * Conversions (CONTRACTS §19): a subject's last pushes sent or clicked, which push a conversion was credited to, and
   * each notification's conversion counts. One script reads and writes them together, so they share the project's tag.
   */
  conversions: (prefix: string, projectId: string) => {
    const start = `${prefix}:conversions:{${projectId}}`;
    return {
      touches: (kind: 'send' | 'click', subjectType: string, subjectId: string) =>
        `${start}:touches:${kind}:${subjectType}:${subjectId}`,
      /** Followed by notification id, subject and event, in the crediting script. */
      creditedPrefix: `${start}:credited:`,
      /** Followed by the notification id. */
      countsPrefix: `${start}:counts:`,
    };
  },
  /** The pattern that finds the projects with counts of a kind in this state, and the project id back from a key. */
  gatheredCountsSearch: (prefix: string, kind: string, state: 'pending' | 'flushing') => {
    const start = `${prefix}:${kind}:${state}:{`;
    return { match: `${start}*}`, projectIdOf: (key: string) => key.slice(start.length, -1) };
  },
};
