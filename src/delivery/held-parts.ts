import type { Job } from 'bullmq';
import {
  enqueueHeldParts,
  heldPartJobId,
  type BatchDevice,
  type DeliverJobData,
  type HeldPart,
} from '../queues/deliver.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import type { BatchProgress } from './batch-progress.ts';

/** Devices that must wait, grouped by the instant they wait for: one delayed part per instant, not one per device. */
export function groupHeld(held: { device: BatchDevice; releaseAt: number }[]): HeldPart[] {
  const parts = new Map<number, string[]>();
  for (const { device, releaseAt } of held) {
    const deviceIds = parts.get(releaseAt) ?? [];
    deviceIds.push(device.deviceId);
    parts.set(releaseAt, deviceIds);
  }
  return [...parts].map(([releaseAt, deviceIds]) => ({ releaseAt, deviceIds }));
}

/**
 * Splits held devices off the batch into delayed parts. The plan is saved in the job first, then the parts are queued
 * under deterministic ids, then the devices count as done here (their part delivers them) and the plan goes with the
 * next save: a run that stops anywhere in between is followed by one that queues the same parts again (a no-op for
 * those queued) instead of holding or sending anew, so a held push is neither lost nor doubled. Parts queued again from
 * a saved plan look up history before sending, in case the first of them already ran and was removed.
 */
export async function splitOffHeld(
  worker: DeliveryWorker,
  job: Job<DeliverJobData>,
  progress: BatchProgress,
  planned: HeldPart[],
  fromSavedPlan: boolean,
): Promise<void> {
  if (planned.length === 0) return;
  if (!fromSavedPlan) await progress.saveHolding(planned);
  const devices = new Map(job.data.devices.map((device) => [device.deviceId, device]));
  const { notificationId, projectId, gateway, batch, localTimeAt } = job.data;
  const parts = planned.map(({ releaseAt, deviceIds }) => ({
    jobId: heldPartJobId(job.id!, releaseAt),
    releaseAt,
    data: {
      notificationId,
      projectId,
      gateway,
      batch,
      devices: deviceIds.map((deviceId) => devices.get(deviceId)!),
      heldUntil: releaseAt,
      ...(localTimeAt !== undefined && { localTimeAt }),
      ...(fromSavedPlan && { resumedFanOut: true as const }),
    },
  }));
  const parent = job.parent?.id ? { id: job.parent.id, queue: job.parent.queueKey } : undefined;
  await enqueueHeldParts(worker.deps, parent, parts);
  for (const { deviceIds } of planned) for (const deviceId of deviceIds) progress.settle(deviceId);
}
