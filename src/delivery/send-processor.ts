import { WaitingChildrenError, type Job, type Processor } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { ChunkPlan, FanOutProgress, SendJobData } from '../queues/send.ts';
import { databaseSegmentResolver, MissingSegmentsError, type SegmentResolver } from '../targets/segment-resolver.ts';
import { targetCursor, type Targets } from '../targets/target-cursor.ts';
import type { BatchDevice, TargetDevice, TargetProjection } from '../targets/target-device.ts';
import { fanOutProjection, targetPlatforms } from './fan-out-projection.ts';
import { enqueueDeliverBatches, gatewayForDevice, queuedBatchSizes, type DeliverJobData } from '../queues/deliver.ts';
import type { GatewayName } from '../gateways/gateway.ts';
import type { MessageOptions } from '../schemas/message-options.ts';
import { claimJourneySend } from '../journeys/cancel-journey-sends.ts';
import { isLastAttempt, mayFollowAnInterruptedRun } from './interrupted-runs.ts';
import { waitOutStorageOutage } from './storage-outages.ts';
import { completeSend } from './complete-send.ts';

export const deliveryBatchSize = 500;

const startProgress: FanOutProgress = { afterId: null, batches: 0, targeted: 0, finished: false };

type SendDeps = Pick<Deps, 'models' | 'queues' | 'redis' | 'config' | 'log'>;

/** Canceled before its first batch was queued: the send ends with nothing sent. */
class SendCanceledError extends Error {}

const notCanceled = (notificationId: string) => ({ _id: notificationId, status: { $ne: 'canceled' as const } });

/** A send whose job failed for good: failed, unless canceled, or completed before the job could record it. */
export async function markSendFailed(models: SendDeps['models'], notificationId: string): Promise<void> {
  await models.Notification.updateOne(
    { _id: notificationId, status: { $nin: ['canceled', 'completed'] } },
    { $set: { status: 'failed' } },
  );
}

/**
 * The send job: streams the targets, queues them as delivery batches that are its children, waits until every
 * batch is done and then marks the notification completed. Progress is kept in the job after each chunk, so a
 * restarted fan-out resumes after the last queued device; batch job ids are deterministic, so nothing is added twice.
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
          await fanOut(deps, segments, job, notification, fanOutProjection(notification), progress);
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

async function fanOut(
  deps: SendDeps,
  segments: SegmentResolver,
  job: Job<SendJobData>,
  targets: Targets & { _id: string; options?: MessageOptions | null },
  projection: TargetProjection,
  start: FanOutProgress,
): Promise<void> {
  let progress = start;
  let chunk: TargetDevice[] = [];
  // Only the first chunk of a resumed fan-out can have been queued before: every later one starts past saved progress.
  let mayBeQueuedBefore = progress.queuing !== undefined || mayFollowAnInterruptedRun(job);
  const queueChunk = async () => {
    progress = await queueBatches(deps, job, targets, chunk, progress, mayBeQueuedBefore);
    mayBeQueuedBefore = false;
    chunk = [];
  };
  for await (const device of targetCursor(deps.models, segments, targets, {
    afterId: progress.afterId,
    projection,
    everySegment: progress.afterId === null && progress.queuing === undefined,
    platforms: targetPlatforms(targets.options),
  })) {
    if (progress.queuing && device._id > progress.queuing.untilId) await queueChunk();
    chunk.push(device);
    if (!progress.queuing && chunk.length >= deliveryBatchSize) await queueChunk();
  }
  if (chunk.length > 0 || progress.queuing) await queueChunk();
  await job.updateData({ ...job.data, progress: { ...progress, finished: true } });
}

function chunkPlan(chunk: TargetDevice[]): ChunkPlan {
  return {
    untilId: chunk[chunk.length - 1]!._id,
    gateways: [...new Set(chunk.map(gatewayForDevice))],
  };
}

/**
 * Queues a chunk's batches, one per gateway. The chunk's plan is saved first; a chunk queued again by a resumed
 * fan-out follows the plan saved then, and leaves out devices of a gateway it did not have: they joined since. It counts
 * the devices its batches hold as queued, by this run or by the interrupted one, which read the devices earlier.
 */
async function queueBatches(
  deps: SendDeps,
  job: Job<SendJobData>,
  targets: Targets & { _id: string },
  chunk: TargetDevice[],
  progress: FanOutProgress,
  mayBeQueuedBefore: boolean,
): Promise<FanOutProgress> {
  const saved = progress.queuing;
  const plan = saved ?? chunkPlan(chunk);
  if (!saved) await job.updateData({ ...job.data, progress: { ...progress, queuing: plan } });
  const byGateway = new Map<GatewayName, BatchDevice[]>();
  for (const { _id, ...device } of chunk) {
    const gateway = gatewayForDevice(device);
    const devices = byGateway.get(gateway) ?? [];
    devices.push(device);
    byGateway.set(gateway, devices);
  }
  const numbers = plan.gateways.map((_, index) => progress.batches + index);
  const batches = plan.gateways.flatMap((gateway, index): DeliverJobData[] => {
    const devices = byGateway.get(gateway);
    if (!devices) return [];
    return [
      {
        notificationId: targets._id,
        projectId: targets.projectId,
        gateway,
        batch: numbers[index]!,
        devices,
        ...(mayBeQueuedBefore && { resumedFanOut: true }),
      },
    ];
  });
  // Counted before the batches go, as they will stand queued (a batch already queued by an interrupted run keeps the
  // devices it was queued with): a batch can deliver before the next write, and a send must never show deliveries
  // while still queued, or more sent than targeted.
  const queuedBefore = saved ? await queuedBatchSizes(deps, targets._id, numbers) : new Map<number, number>();
  const sizes = new Map(batches.map((batch) => [batch.batch, batch.devices.length]));
  const targeted =
    progress.targeted + numbers.reduce((sum, number) => sum + (queuedBefore.get(number) ?? sizes.get(number) ?? 0), 0);
  // The status rides on each chunk's count rather than costing a write of its own (a send to a few users is a handful
  // of journaled writes, and a write of its own would be one more); 'failed' too becomes 'sending': a replayed send
  // resumes.
  // This write also claims the send from a cancelation, which moves only a queued notification (cancelNotification):
  // either it came first and nothing is queued, or it finds the send already going out.
  const claimed = await deps.models.Notification.updateOne(notCanceled(targets._id), {
    $set: { 'stats.targeted': targeted, status: 'sending' },
  });
  if (claimed.matchedCount === 0) throw new SendCanceledError();
  if (batches.length > 0) await enqueueDeliverBatches(deps, { id: job.id!, queue: job.queueQualifiedName }, batches);
  const next: FanOutProgress = {
    afterId: plan.untilId,
    batches: progress.batches + numbers.length,
    targeted,
    finished: false,
  };
  await job.updateData({ ...job.data, progress: next });
  return next;
}
