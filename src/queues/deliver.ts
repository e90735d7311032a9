import { noteWaiting, type WaitingReason } from './waiting-pushes.ts';
import type { JobsOptions, ParentOptions } from 'bullmq';
import type { Deps } from '../deps.ts';
import { resumableStalls, type QueueDefinition } from './queue-definition.ts';
import type { GatewayName, WebPushKeys } from '../gateways/gateway.ts';
import type { Platform } from '../schemas/platforms.ts';

/** What a delivery needs of a device, read once by the fan-out and carried in the delivery batch. */
export interface BatchDevice {
  deviceId: string;
  platform: Platform;
  pushToken: string;
  /** Set for a Web Push subscription, whose endpoint is then the pushToken. */
  webPushKeys?: WebPushKeys | null;
  userId?: string | null;
  tags?: Record<string, unknown>;
  /** Its IANA zone, for local-time sends and quiet hours; null: the project's default. */
  timezone?: string | null;
  /** Read only for a message with localizations, which it chooses among (CONTRACTS §14). */
  language?: string | null;
  /** The experiment variant it gets (CONTRACTS §19), chosen by the fan-out. */
  variant?: string;
}

/** A device whose token a gateway rejected: it is unsubscribed if it still holds that token. */
export interface Rejection {
  deviceId: string;
  pushToken: string;
  reason: string;
}

/**
 * Outcomes of one gateway call, saved in the job (Redis) as soon as the call returns and before their history and
 * unsubscribes are written to MongoDB. A run that stops in between (MongoDB away, the process killed) leaves them
 * here, and the next run writes them instead of sending those pushes again.
 */
export interface UnrecordedOutcomes {
  sent: string[];
  rejected: Rejection[];
  /** Absent in jobs saved before the delivery log: their failures are counted, not logged. */
  failed?: DeviceFailure[];
  /** When the gateway answered (ms since the epoch): the history's sentAt. */
  at: number;
}

/** A device the gateway refused for good, with its reason, which is not an unsubscribe. */
export interface DeviceFailure {
  deviceId: string;
  reason: string;
}

export interface DeliveryTally {
  sent: number;
  failed: number;
  unsubscribed: number;
  /** Not sent: the project's frequency cap (CONTRACTS §15). */
  capped: number;
}

/** One delivery batch: up to a few hundred devices of one notification that share a gateway. */
export interface DeliverJobData {
  notificationId: string;
  projectId: string;
  gateway: GatewayName;
  batch: number;
  /** As the fan-out read them: delivery reads no device documents. */
  devices: BatchDevice[];
  /** The experiment variant its devices get (CONTRACTS §19). */
  variant?: string;
  /**
   * In the first chunk a fan-out queued after an interrupted run: that run may have queued this batch already, and the
   * earlier job may have delivered it and been removed since, so this one looks up what was delivered before sending.
   */
  resumedFanOut?: true;
  /** Devices whose outcome is final (sent, unsubscribed, failed or gone): a retry or replay skips them. */
  done?: string[];
  /**
   * Devices the batch's last attempt gave up on, counted failed so that its notification's stats add up: a replay
   * from the dashboard tries them again (CONTRACTS §1: a replay never loses a push), and each stays counted failed
   * until it has its outcome.
   */
  gaveUp?: string[];
  tally?: DeliveryTally;
  /** How many of the tally's sent pushes are in the project's daily counts: the next save adds the rest. */
  sentCounted?: number;
  retryRound?: number;
  /** Attempts that ended with their progress saved (RetriesExhaustedError): they leave nothing to look up in history. */
  attemptsEndedClean?: number;
  unrecorded?: UnrecordedOutcomes;
  /** How many times a run saved the data: a call's progress saved before the last of them is stale (CallProgress). */
  saves?: number;
  /**
   * Devices being split off to wait (quiet hours, local time, CONTRACTS §15), saved before their parts are queued: a
   * rerun queues the same parts again (their ids are deterministic) rather than deciding anew.
   */
  holding?: HeldPart[];
  /** A held part: the instant its devices waited for (ms since the epoch), from which their ttl counts. */
  heldUntil?: number;
  /** A part of a local-time send, and the parts split off it: the instant its devices' local time comes round. */
  localTimeAt?: number;
}

/** Devices of a batch that wait, as a delayed job of their own, until `releaseAt` (ms since the epoch). */
export interface HeldPart {
  releaseAt: number;
  deviceIds: string[];
  /** Why they wait; a plan saved before reasons were kept held for quiet hours or local time alike. */
  reason?: WaitingReason;
}

/** A held part's job id: its batch's job id and the instant it waits for, so the same split queues nothing twice. */
export const heldPartJobId = (batchJobId: string, releaseAt: number) => `${batchJobId}-h${releaseAt}`;

/** A local-time send's part: the nth of those for one instant and gateway, deterministic like a batch's. */
export const zonePartJobId = (id: string, instant: number, gateway: GatewayName, part: number, group?: string) =>
  `${id}-t${instant}-${gateway}-${group === undefined ? '' : `${group}-`}${part}`;

export const emptyTally = (): DeliveryTally => ({ sent: 0, failed: 0, unsubscribed: 0, capped: 0 });

export const deliverJobName = (notificationId: string, batch: number) => `deliver:${notificationId}:${batch}`;
/** Deterministic, so a replayed fan-out adds nothing twice (BullMQ ids cannot contain ":"). */
export const deliverJobId = (notificationId: string, batch: number) => `${notificationId}-${batch}`;

/** A web device with a Web Push subscription goes through Web Push; one with an FCM token, through FCM. */
export function gatewayForDevice(device: Pick<BatchDevice, 'platform' | 'webPushKeys'>): GatewayName {
  if (device.webPushKeys) return 'webpush';
  return device.platform === 'ios' ? 'apns' : 'fcm';
}

export const deliverJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  // A batch that fails for good must not hold its notification in "sending" forever; its devices count as failed, by
  // its last attempt or, for a batch BullMQ failed unrun, by the worker that failed it (giveUpBatch).
  ignoreDependencyOnFailure: true,
};

/** The batches are children of their send job, which waits for them all before it completes the notification. */
export async function enqueueDeliverBatches(
  deps: Pick<Deps, 'queues'>,
  parent: ParentOptions,
  batches: DeliverJobData[],
): Promise<void> {
  await deps.queues.deliver.addBulk(
    batches.map((data) => ({
      name: deliverJobName(data.notificationId, data.batch),
      data,
      opts: { ...deliverJobOptions, jobId: deliverJobId(data.notificationId, data.batch), parent },
    })),
  );
}

/**
 * Held parts of a batch, as delayed deliver jobs under the batch's own parent (the send job waits for them too), each
 * noted as waiting, with why, once queued.
 */
export async function enqueueHeldParts(
  deps: Pick<Deps, 'queues' | 'redis' | 'config'>,
  parent: ParentOptions | undefined,
  parts: { jobId: string; data: DeliverJobData; releaseAt: number; reason: WaitingReason }[],
  now = Date.now(),
): Promise<void> {
  await deps.queues.deliver.addBulk(
    parts.map(({ jobId, data, releaseAt }) => ({
      name: deliverJobName(data.notificationId, data.batch),
      data,
      opts: { ...deliverJobOptions, jobId, delay: Math.max(0, releaseAt - now), ...(parent && { parent }) },
    })),
  );
  const [first] = parts;
  if (first === undefined) return;
  const { projectId, notificationId } = first.data;
  await noteWaiting(
    deps,
    projectId,
    notificationId,
    parts.map(({ jobId, data, releaseAt, reason }) => ({ jobId, devices: data.devices.length, reason, at: releaseAt })),
  );
}

/** How many devices each batch of these numbers already queued holds, by batch number. */
export async function queuedBatchSizes(
  deps: Pick<Deps, 'queues'>,
  notificationId: string,
  batches: number[],
): Promise<Map<number, number>> {
  const jobs = await Promise.all(
    batches.map((batch) => deps.queues.deliver.getJob(deliverJobId(notificationId, batch))),
  );
  return new Map(jobs.flatMap((job) => (job ? [[job.data.batch, job.data.devices.length] as const] : [])));
}

/** Delivery batches rendered and sent to their gateway. */
export const deliverQueue: QueueDefinition<'deliver'> = {
  name: 'deliver',
  // Deliveries mostly wait on gateway round trips, so one process keeps many batches in flight.
  defaultConcurrency: 16,
  maxStalledCount: resumableStalls,
};
