import type { JobsOptions } from 'bullmq';
import type { Deps } from '../deps.ts';
import { resumableStalls, type QueueDefinition } from './queue-definition.ts';
import type { GatewayName } from '../gateways/gateway.ts';

/** A chunk of the fan-out as it was first read: saved before its batches are queued. */
export interface ChunkPlan {
  /** The _id of its last device. */
  untilId: string;
  /** Its devices' gateways, in the order of their batch numbers. */
  gateways: GatewayName[];
  /** In an experiment, each batch's variant beside its gateway ('' for none). */
  variants?: string[];
}

/** What a local-time send has queued for one instant and gateway (its bucket), in parts of up to a few thousand. */
export interface QueuedZoneParts {
  parts: number;
  /** The _id of the last device of its last part: every device of the bucket up to it is queued. */
  untilId: string;
  /** Devices its parts hold. */
  devices: number;
}

/** A part of a local-time send as first cut: saved before it is queued. */
export interface ZonePartPlan {
  instant: number;
  gateway: GatewayName;
  /** In an experiment, the variant its devices get, and its group in job ids and bucket keys (experimentGroup). */
  variant?: string;
  group?: string;
  untilId: string;
}

/**
 * A local-time send's fan-out: the parts queued by bucket (`${instant}-${gateway}`, and `-${group}` in an experiment),
 * and the one being queued.
 */
export interface LocalTimeProgress {
  buckets: Record<string, QueuedZoneParts>;
  /**
   * Queued again, by a fan-out resumed after an interruption, with the same devices (up to the same one), so that it
   * takes the same job id with the same devices, and the next part of its bucket starts after them.
   */
  queuing?: ZonePartPlan;
}

export interface FanOutProgress {
  /** The _id of the last device whose batch is queued; the fan-out resumes after it. */
  afterId: string | null;
  batches: number;
  targeted: number;
  /** In an experiment: the devices queued so far for each variant. */
  variantTargeted?: Record<string, number>;
  finished: boolean;
  /**
   * The chunk being queued. A fan-out resumed after an interruption queues it again as it was cut, up to the same
   * device and in the same batches, not as cut anew from devices that may have left or joined meanwhile: a chunk that
   * ended further on would take a device whose batch, already queued, does not have it, and a batch numbered anew could
   * take the number of the next chunk's first batch, so that one would never be queued.
   */
  queuing?: ChunkPlan;
  /** A local-time send's, whose afterId is where the stream resumes: every device before it is in a queued part. */
  localTime?: LocalTimeProgress;
}

export interface SendJobData {
  notificationId: string;
  projectId: string;
  progress?: FanOutProgress;
  /**
   * An experiment's automatic decision, or the fan-out of its winner to the devices that waited (CONTRACTS §19);
   * absent: the send itself.
   */
  phase?: 'decide' | 'winner';
}

interface SendableNotification {
  _id: string;
  projectId: string;
  sendAt?: Date | null;
}

export const sendJobName = (notificationId: string) => `send:${notificationId}`;

const sendJobOptions: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
};

/**
 * The job id is the notification id: adding it again while it exists is a no-op, so an ingress retry never
 * starts a second fan-out.
 */
function sendJob(
  notification: SendableNotification,
  now = Date.now(),
): { name: string; data: SendJobData; opts: JobsOptions } {
  const data: SendJobData = { notificationId: notification._id, projectId: notification.projectId };
  const delay = notification.sendAt ? Math.max(0, notification.sendAt.getTime() - now) : 0;
  return { name: sendJobName(notification._id), data, opts: { ...sendJobOptions, jobId: notification._id, delay } };
}

export async function enqueueSend(
  deps: Pick<Deps, 'queues'>,
  notification: SendableNotification,
  now = Date.now(),
): Promise<void> {
  const job = sendJob(notification, now);
  await deps.queues.send.add(job.name, job.data, job.opts);
}

/** Several sends as one addBulk (a MULTI of their adds); one alone as a plain add. */
export async function enqueueSends(
  deps: Pick<Deps, 'queues'>,
  notifications: SendableNotification[],
  now = Date.now(),
): Promise<void> {
  if (notifications.length === 1) return enqueueSend(deps, notifications[0]!, now);
  if (notifications.length > 1)
    await deps.queues.send.addBulk(notifications.map((notification) => sendJob(notification, now)));
}

/** A notification's fan-out: its targets streamed into deliver batches. */
export const sendQueue: QueueDefinition<'send'> = {
  name: 'send',
  defaultConcurrency: 4,
  maxStalledCount: resumableStalls,
};

/** An automatic experiment's decision, due decideAfterMinutes after its send went out; once, by its job id. */
export async function enqueueDecision(
  deps: Pick<Deps, 'queues'>,
  notification: { _id: string; projectId: string },
  dueAt: number,
): Promise<void> {
  const data: SendJobData = { notificationId: notification._id, projectId: notification.projectId, phase: 'decide' };
  const delay = Math.max(0, dueAt - Date.now());
  await deps.queues.send.add(`decide:${notification._id}`, data, {
    ...sendJobOptions,
    jobId: `${notification._id}-decide`,
    delay,
  });
}

/** The winner's fan-out to the devices that waited: once, by its job id, whoever decided and however often. */
export async function enqueueWinnerFanOut(
  deps: Pick<Deps, 'queues'>,
  notification: { _id: string; projectId: string },
): Promise<void> {
  const data: SendJobData = { notificationId: notification._id, projectId: notification.projectId, phase: 'winner' };
  await deps.queues.send.add(`winner:${notification._id}`, data, {
    ...sendJobOptions,
    jobId: `${notification._id}-winner`,
  });
}
