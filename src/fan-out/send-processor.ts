import { WaitingChildrenError, type Processor } from 'bullmq';
import type { FanOutProgress, SendJobData } from '../queues/send.ts';
import { databaseSegmentResolver, MissingSegmentsError } from '../targets/segment-resolver.ts';
import { fanOutProjection } from './fan-out-projection.ts';
import { claimJourneySend } from '../journeys/cancel-journey-sends.ts';
import { isLastAttempt } from '../infra/interrupted-runs.ts';
import { waitOutStorageOutage } from '../infra/storage-outages.ts';
import { completeSend } from './complete-send.ts';
import { SendCanceledError, type SendDeps } from './send-claim.ts';
import { fanOutBatches } from './batch-fan-out.ts';
import { fanOutByLocalTime } from './local-time-fan-out.ts';

const startProgress: FanOutProgress = { afterId: null, batches: 0, targeted: 0, finished: false };

/** A send whose job failed for good: failed, unless canceled, or completed before the job could record it. */
export async function markSendFailed(models: SendDeps['models'], notificationId: string): Promise<void> {
  await models.Notification.updateOne(
    { _id: notificationId, status: { $nin: ['canceled', 'completed'] } },
    { $set: { status: 'failed' } },
  );
}

/**
 * The send job: streams the targets, queues them as delivery batches that are its children (a local-time send: as
 * delayed parts by the instant their devices wait for), waits until every one is done and then marks the notification
 * completed. Progress is kept in the job as they are queued, so a restarted fan-out resumes where it stopped; their job
 * ids are deterministic, so nothing is added twice.
 */
export function sendProcessor(deps: SendDeps): Processor<SendJobData> {
  const { Notification } = deps.models;
  const segments = databaseSegmentResolver(deps);
  return async (job, token) => {
    const { notificationId } = job.data;
    const fields = {
      projectId: 1,
      targetType: 1,
      targetIds: 1,
      status: 1,
      title: 1,
      body: 1,
      url: 1,
      imageUrl: 1,
      journeyId: 1,
      options: 1,
      timing: 1,
      sendAt: 1,
      createdAt: 1,
    };
    try {
      const notification = await Notification.findById(notificationId, fields).lean();
      if (!notification || notification.status === 'canceled') return;
      if (notification.status === 'completed') return await completeSend(deps, notification);
      if (
        notification.status === 'queued' &&
        notification.journeyId &&
        !(await claimJourneySend(deps.models, notificationId, notification.journeyId))
      )
        return;
      const progress = job.data.progress ?? startProgress;
      if (!progress.finished) {
        try {
          const projection = fanOutProjection(notification);
          const localTime = notification.timing?.localTime;
          if (localTime === undefined) await fanOutBatches(deps, segments, job, notification, projection, progress);
          else await fanOutByLocalTime(deps, segments, job, { ...notification, localTime }, projection, progress);
        } catch (error) {
          if (error instanceof SendCanceledError) return;
          if (!(error instanceof MissingSegmentsError)) throw error;
          deps.log.warn({ notificationId, segmentIds: error.segmentIds }, `the send failed: ${error.message}`);
          await markSendFailed(deps.models, notificationId);
          return;
        }
      }
      if (token !== undefined && (await job.moveToWaitingChildren(token))) throw new WaitingChildrenError();
      await completeSend(deps, notification);
    } catch (error) {
      await waitOutStorageOutage(job, token, error);
      if (!(error instanceof WaitingChildrenError) && isLastAttempt(job))
        await markSendFailed(deps.models, notificationId).catch(() => undefined);
      throw error;
    }
  };
}
