import { DelayedError, WaitingChildrenError, type Processor } from 'bullmq';
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
import { decideExperiment } from '../experiments/decide-experiment.ts';
import { winnerBatchOffset } from '../experiments/experiment-groups.ts';
import { enqueueDecision } from '../queues/send.ts';
import { delayRun } from '../infra/delay-run.ts';

const startProgress: FanOutProgress = { afterId: null, batches: 0, targeted: 0, finished: false };

/** The winner's fan-out counts on from the test's: its batches numbered apart, its devices added to the targeted. */
const winnerStart = (notification: {
  stats?: { targeted?: number | null } | null;
  variantTargeted?: object | null;
}) => ({
  ...startProgress,
  batches: winnerBatchOffset,
  targeted: notification.stats?.targeted ?? 0,
  ...(notification.variantTargeted && { variantTargeted: notification.variantTargeted as Record<string, number> }),
});

const decisionFrom = (notification: { sendAt?: Date | null; createdAt: Date }) =>
  (notification.sendAt ?? notification.createdAt).getTime();

/** The instants a local-time fan-out queued parts for. */
const zoneInstants = (progress: FanOutProgress) =>
  Object.keys(progress.localTime?.buckets ?? {}).map((key) => Number(key.slice(0, key.indexOf('-'))));

/**
 * The test's send job is still fanning out or waiting for its deliveries. Once it has ended it may be removed (the
 * queue keeps finished jobs a day, and a decision may come three days after the send): gone, it is over too.
 */
async function testStillRuns(deps: SendDeps, notificationId: string): Promise<boolean> {
  const state = await deps.queues.send.getJobState(notificationId);
  return state !== 'completed' && state !== 'failed' && state !== 'unknown';
}

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
    const { notificationId, phase } = job.data;
    if (phase === 'decide') return void (await decideExperiment(deps, notificationId));
    const fields = {
      experiment: 1,
      variants: 1,
      stats: 1,
      variantTargeted: 1,
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
      const { experiment } = notification;
      const localTime = notification.timing?.localTime;
      const progress = job.data.progress ?? (phase === 'winner' ? winnerStart(notification) : startProgress);
      if (!progress.finished && (phase !== 'winner' || experiment?.winner)) {
        if (phase === undefined && experiment?.mode === 'auto' && localTime === undefined)
          await enqueueDecision(
            deps,
            notification,
            decisionFrom(notification) + experiment.decideAfterMinutes * 60_000,
          );
        try {
          const projection = fanOutProjection(notification);
          const targets = { ...notification, ...(phase && { phase }) };
          if (localTime === undefined) await fanOutBatches(deps, segments, job, targets, projection, progress);
          else await fanOutByLocalTime(deps, segments, job, { ...targets, localTime }, projection, progress);
        } catch (error) {
          if (error instanceof SendCanceledError) return;
          if (!(error instanceof MissingSegmentsError)) throw error;
          deps.log.warn({ notificationId, segmentIds: error.segmentIds }, `the send failed: ${error.message}`);
          await markSendFailed(deps.models, notificationId);
          return;
        }
      }
      // A local-time test is decided that long after its last zone's time, so that every tested device had as long.
      if (phase === undefined && experiment?.mode === 'auto' && localTime !== undefined && job.data.progress?.finished)
        await enqueueDecision(
          deps,
          notification,
          Math.max(decisionFrom(notification), ...zoneInstants(job.data.progress)) +
            experiment.decideAfterMinutes * 60_000,
        );
      if (token !== undefined && (await job.moveToWaitingChildren(token))) throw new WaitingChildrenError();
      // An experiment's test leaves the send to its winner's fan-out when devices wait, which ends once the test has.
      if (phase === undefined && experiment && experiment.testPercent < 100) return;
      if (phase === 'winner' && (await testStillRuns(deps, notificationId))) await delayRun(job, token, 1000);
      if (phase === 'winner')
        await Notification.updateOne(
          { _id: notificationId, 'experiment.status': 'sending_winner' },
          { $set: { 'experiment.status': 'completed' } },
        );
      await completeSend(deps, notification);
    } catch (error) {
      await waitOutStorageOutage(deps.log, job, token, error);
      if (!(error instanceof WaitingChildrenError || error instanceof DelayedError) && isLastAttempt(job))
        await markSendFailed(deps.models, notificationId).catch(() => undefined);
      throw error;
    }
  };
}
