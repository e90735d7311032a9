import { scanKeys } from '../infra/redis.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { claimRefusals, gatherRefusals, releaseClaims } from './gathered-refusals.ts';
import { refusedCount, writeRefusals, type RefusalWriteDeps, type RefusedDevices } from './refused-devices.ts';

/**
 * About the devices one write covers (a chunk ends once it holds this many), and how many a notification gathers
 * before a run that adds to them writes them: on a server that spends a fixed time on each write command, one command
 * per this many refused devices instead of one per delivery run.
 */
export const refusalsPerWrite = 1000;

/**
 * Runs in order, in chunks of about refusalsPerWrite devices: a chunk takes runs until it holds that many, so that the
 * claim a run took on reaching refusalsPerWrite is one write, not one and the few devices of its last run.
 */
function chunksOf(runs: RefusedDevices[]): RefusedDevices[][] {
  const chunks: RefusedDevices[][] = [];
  let devices = refusalsPerWrite;
  for (const run of runs) {
    if (devices >= refusalsPerWrite) {
      chunks.push([]);
      devices = 0;
    }
    chunks.at(-1)!.push(run);
    devices += refusedCount(run);
  }
  return chunks;
}

/**
 * Writes a notification's gathered refusals: claims them (gathered-refusals.ts), writes them, then releases the
 * claims, so that a flusher killed, or a Redis restarted from its append-only file, between the claim and the release
 * leaves them for the next flusher to write again, which changes nothing written. `leased` takes the claims of other
 * living flushers too: a send's end writes everything gathered for it before it reads as ended. Answers how many
 * devices were written.
 */
export async function flushRefusals(
  deps: RefusalWriteDeps,
  notificationId: string,
  options: { leased: boolean; leaseMs?: number } = { leased: true },
): Promise<number> {
  const claimed = await claimRefusals(deps, notificationId, options);
  for (const chunk of chunksOf(claimed.runs)) await writeRefusals(deps, chunk);
  await releaseClaims(deps, claimed);
  return claimed.runs.reduce((devices, run) => devices + refusedCount(run), 0);
}

/**
 * A delivery run's refused devices, gathered with its notification's; once refusalsPerWrite are pending, this run
 * writes them. A failed write leaves them claimed, for the sweep or the send's end to write: the run goes on.
 */
export async function gatherOrFlushRefusals(deps: RefusalWriteDeps, refused: RefusedDevices): Promise<void> {
  if (refusedCount(refused) === 0) return;
  if ((await gatherRefusals(deps, refused)) < refusalsPerWrite) return;
  await flushRefusals(deps, refused.notificationId, { leased: false }).catch((error: unknown) => {
    deps.log.warn({ err: error, notificationId: refused.notificationId }, 'refused devices left for the sweep');
  });
}

/**
 * Writes the refusals left in Redis: those of sends that ended without writing them (a send failed for good, runs
 * that ended after a cancel) and the claims of flushers that died. Answers how many notifications it found.
 */
export async function sweepRefusals(deps: RefusalWriteDeps): Promise<{ notifications: number }> {
  const notifications = new Set<string>();
  for (const state of ['pending', 'claims'] as const) {
    const search = redisKeys.refusalsSearch(deps.config.queuePrefix, state);
    for await (const key of scanKeys(deps.redis, search.match)) notifications.add(search.notificationIdOf(key));
  }
  for (const notificationId of notifications) await flushRefusals(deps, notificationId, { leased: false });
  return { notifications: notifications.size };
}
