import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/** Why a push waits (CONTRACTS §15, §17): its device's local time, the project's quiet hours, or the send's throttle. */
export type WaitingReason = 'local_time' | 'quiet_hours' | 'throttle';

/** A delivery job waiting as delayed work: its devices not yet handed to a gateway, why, and until when. */
export interface WaitingPart {
  jobId: string;
  devices: number;
  reason: WaitingReason;
  at: number;
}

type WaitingDeps = Pick<Deps, 'redis' | 'config'>;

/** Kept past the longest wait a push can have (a push's ttl is at most 28 days), then dropped by Redis. */
const keptSeconds = 30 * 24 * 3600;

/**
 * Notes delivery jobs as they are delayed, so that the notification view and the delivery log can say how many
 * pushes wait, why and until when, without reading the queue's delayed jobs; each job's note goes when it runs
 * (noteRunning). The notifications holding pushes for quiet hours are noted by project, for a settings change.
 */
export async function noteWaiting(
  deps: WaitingDeps,
  projectId: string,
  notificationId: string,
  parts: WaitingPart[],
): Promise<void> {
  if (parts.length === 0) return;
  const { queuePrefix } = deps.config;
  const key = redisKeys.waitingPushes(queuePrefix, projectId, notificationId);
  const multi = deps.redis.multi();
  for (const { jobId, ...part } of parts) multi.hset(key, jobId, JSON.stringify(part));
  multi.expire(key, keptSeconds);
  if (parts.some((part) => part.reason === 'quiet_hours')) {
    const quiet = redisKeys.quietHeld(queuePrefix, projectId);
    multi.sadd(quiet, notificationId).expire(quiet, keptSeconds);
  }
  await multi.exec();
}

/** The job runs: its devices no longer wait (those it holds again are noted again under their own parts). */
export async function noteRunning(
  deps: WaitingDeps,
  projectId: string,
  notificationId: string,
  jobId: string,
): Promise<void> {
  await deps.redis.hdel(redisKeys.waitingPushes(deps.config.queuePrefix, projectId, notificationId), jobId);
}

export async function waitingParts(
  deps: WaitingDeps,
  projectId: string,
  notificationId: string,
): Promise<WaitingPart[]> {
  const fields = await deps.redis.hgetall(redisKeys.waitingPushes(deps.config.queuePrefix, projectId, notificationId));
  return Object.entries(fields).map(([jobId, text]) => ({
    jobId,
    ...(JSON.parse(text) as Omit<WaitingPart, 'jobId'>),
  }));
}

/** How many pushes wait and the earliest time one is due; none when nothing waits. */
export async function waitingSummary(
  deps: WaitingDeps,
  projectId: string,
  notificationId: string,
): Promise<{ waiting: number; waitingUntil: string } | null> {
  const parts = await waitingParts(deps, projectId, notificationId);
  const waiting = parts.reduce((sum, part) => sum + part.devices, 0);
  if (waiting === 0) return null;
  return { waiting, waitingUntil: new Date(Math.min(...parts.map((part) => part.at))).toISOString() };
}

/**
 * A settings change applies to pushes already held (CONTRACTS §15): the project's parts held for quiet hours run
 * again once the deliver workers' copy of the settings (kept a second) has the change, and are held again only as
 * long as the new quiet hours say.
 */
export async function releaseQuietHeld(deps: WaitingDeps & Pick<Deps, 'queues'>, projectId: string): Promise<void> {
  const { queuePrefix } = deps.config;
  const notificationIds = await deps.redis.smembers(redisKeys.quietHeld(queuePrefix, projectId));
  for (const notificationId of notificationIds) {
    const held = (await waitingParts(deps, projectId, notificationId)).filter((part) => part.reason === 'quiet_hours');
    if (held.length === 0) await deps.redis.srem(redisKeys.quietHeld(queuePrefix, projectId), notificationId);
    for (const part of held) {
      const job = await deps.queues.deliver.getJob(part.jobId);
      if (job && (await job.isDelayed())) await job.changeDelay(settingsCopyMs);
    }
  }
}

/** How long a deliver worker may answer from its copy of a project's settings (ProjectSettingsCache), and a margin. */
const settingsCopyMs = 1500;
