import type { JobsOptions } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { QueueDefinition } from './queue-definition.ts';

export interface FanOutProgress {
  /** The _id (hex) of the last device whose batch is queued; the fan-out resumes after it. */
  afterId: string | null;
  batches: number;
  targeted: number;
  finished: boolean;
}

export interface SendJobData {
  notificationId: string;
  projectId: string;
  progress?: FanOutProgress;
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
export function sendJob(
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

/** A notification's fan-out: its targets streamed into deliver batches. */
export const sendQueue: QueueDefinition<'send'> = {
  name: 'send',
  defaultConcurrency: 4,
  async processor(deps) {
    const { sendProcessor } = await import('../delivery/send-processor.ts');
    return { process: sendProcessor(deps) };
  },
};
