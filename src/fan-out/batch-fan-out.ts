import type { Job } from 'bullmq';
import type { ChunkPlan, FanOutProgress, SendJobData } from '../queues/send.ts';
import type { SegmentResolver } from '../targets/segment-resolver.ts';
import { targetCursor, type Targets } from '../targets/target-cursor.ts';
import type { TargetDevice, TargetProjection } from '../targets/target-device.ts';
import {
  enqueueDeliverBatches,
  gatewayForDevice,
  queuedBatchSizes,
  type BatchDevice,
  type DeliverJobData,
} from '../queues/deliver.ts';
import type { GatewayName } from '../gateways/gateway.ts';
import type { MessageOptions } from '../schemas/message-options.ts';
import { mayFollowAnInterruptedRun } from '../infra/interrupted-runs.ts';
import { targetPlatforms } from './fan-out-projection.ts';
import { claimSending, type SendDeps } from './send-claim.ts';

export const deliveryBatchSize = 500;

export type FanOutTargets = Targets & { _id: string; options?: MessageOptions | null };

/** The devices of a send, read in `_id` order from where an interrupted fan-out stopped. */
export function fanOutCursor(
  deps: SendDeps,
  segments: SegmentResolver,
  targets: FanOutTargets,
  projection: TargetProjection,
  progress: FanOutProgress,
  resuming: boolean,
): AsyncIterable<TargetDevice> {
  return targetCursor(deps.models, segments, targets, {
    afterId: progress.afterId,
    projection,
    everySegment: progress.afterId === null && !resuming,
    platforms: targetPlatforms(targets.options),
  });
}

/** A send to be delivered at once: its devices queued in delivery batches of 500 as they stream by. */
export async function fanOutBatches(
  deps: SendDeps,
  segments: SegmentResolver,
  job: Job<SendJobData>,
  targets: FanOutTargets,
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
  for await (const device of fanOutCursor(deps, segments, targets, projection, progress, !!progress.queuing)) {
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
  await claimSending(deps.models, targets._id, { 'stats.targeted': targeted });
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
