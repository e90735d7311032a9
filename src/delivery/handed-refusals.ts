import type { Job } from 'bullmq';
import type { DeliverJobData } from '../queues/deliver.ts';
import { enqueueRefusalWrites, type RefusalWritesJobData } from '../queues/refusal-writes.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import type { ReportedDevice, ReportedOutcomes } from './report-outcomes.ts';
import { recordRefusals } from './record-outcomes.ts';

/** One run's refused devices, as a hand-off keeps them until they are written. */
interface HandedRefusals extends Omit<ReportedOutcomes, 'at'> {
  devices: ReportedDevice[];
  at: number;
}

/** Kept this long if no job writes them (one failed for good): they are not worth Redis's memory after that. */
const keptMs = 7 * 24 * 3600 * 1000;

/**
 * A delivery run's refused devices, handed off to be written with the others of its notification (CONTRACTS §9's
 * unsubscribes, the delivery log, the webhook events): stored in the notification's hash under the hand-off's id, with
 * a refusal-writes job queued under the same id a moment later. The run's save of its progress comes after; a run
 * that stops before it writes them itself on its rerun, and the job that comes anyway writes them again (idempotent).
 */
export async function handOffRefusals(
  worker: DeliveryWorker,
  job: Job<DeliverJobData>,
  refusals: ReportedOutcomes,
): Promise<void> {
  const { projectId, notificationId } = job.data;
  const refused = new Set([...refusals.rejected, ...refusals.failed].map((device) => device.deviceId));
  const devices = job.data.devices
    .filter((device) => refused.has(device.deviceId))
    .map(({ deviceId, platform, userId }) => ({ deviceId, platform, userId }));
  const handed: HandedRefusals = { ...refusals, devices, at: refusals.at.getTime() };
  // Unique to this save of the batch: a later hand-off of the same job is another.
  const handOffId = `${job.id}-r${job.data.saves ?? 0}`;
  const { pending } = redisKeys.handedRefusals(worker.deps.config.queuePrefix, notificationId);
  await worker.deps.redis.multi().hset(pending, handOffId, JSON.stringify(handed)).pexpire(pending, keptMs).exec();
  const parent = job.parent?.id ? { id: job.parent.id, queue: job.parent.queueKey } : undefined;
  await enqueueRefusalWrites(worker.deps, handOffId, { projectId, notificationId }, parent);
}

/**
 * Takes every hand-off pending for the notification (a rename, so another job takes none of them), unless this job
 * took some already: a rerun writes again what its earlier run took.
 */
const takeScript = `
if redis.call('EXISTS', KEYS[2]) == 0 then
  if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
  redis.call('RENAME', KEYS[1], KEYS[2])
end
return redis.call('HVALS', KEYS[2])`;

/**
 * A refusal-writes job: the hand-offs pending when it is due, written together; the jobs of hand-offs it took find
 * none. They keep the earliest refusal's time, as an unsubscribe round does.
 */
export async function writeHandedRefusals(worker: DeliveryWorker, job: Job<RefusalWritesJobData>): Promise<void> {
  const { projectId, notificationId } = job.data;
  const keys = redisKeys.handedRefusals(worker.deps.config.queuePrefix, notificationId);
  const taken = keys.taken(job.id!);
  const values = (await worker.deps.redis.eval(takeScript, 2, keys.pending, taken)) as string[];
  const handOffs = values.map((value) => JSON.parse(value) as HandedRefusals);
  if (handOffs.length > 0)
    await recordRefusals(
      worker.deps,
      { projectId, notificationId, devices: handOffs.flatMap((handOff) => handOff.devices) },
      {
        rejected: handOffs.flatMap((handOff) => handOff.rejected),
        failed: handOffs.flatMap((handOff) => handOff.failed),
        at: new Date(Math.min(...handOffs.map((handOff) => handOff.at))),
      },
    );
  await worker.deps.redis.del(taken);
}
