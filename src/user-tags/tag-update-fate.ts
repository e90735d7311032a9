import type { Deps } from '../deps.ts';

/**
 * What became of a queued tag update, decided once: the worker claims it before applying ('applying', then
 * 'applied'), or the request that queued it, tired of waiting, withdraws it ('withdrawn'), so that its 503 can truly
 * say nothing changed. Whichever claims first wins. An applied update replayed from the dashboard changes nothing
 * either: applying it again would overwrite whatever the user's tags became since.
 *
 * The fate is a field of the job's own hash, which BullMQ's retries and replays leave alone: it lasts exactly as long
 * as the job it governs and goes with it, where a key of its own would have to outlive any job: Redis would hold one
 * key per request for 30 days (docs/performance.md, Ingress).
 */
export type TagUpdateFate = 'applying' | 'applied' | 'withdrawn';

// A job already removed is left removed (no hash holding only a fate), and nothing can apply it any more.
const fateScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if ARGV[2] == 'claim' then
  redis.call('HSETNX', KEYS[1], 'fate', ARGV[1])
else
  redis.call('HSET', KEYS[1], 'fate', ARGV[1])
end
return redis.call('HGET', KEYS[1], 'fate')`;

type FateDeps = Pick<Deps, 'redis' | 'queues'>;

async function writeFate(
  deps: FateDeps,
  jobId: string,
  fate: TagUpdateFate,
  mode: 'claim' | 'set',
): Promise<TagUpdateFate> {
  // BullMQ names the job's hash itself.
  const jobKey = deps.queues.tagUpdate.toKey(jobId);
  return ((await deps.redis.eval(fateScript, 1, jobKey, fate, mode)) as TagUpdateFate | null) ?? fate;
}

/** The fate that holds after trying to claim one. */
export function claimFate(deps: FateDeps, jobId: string, claim: 'applying' | 'withdrawn'): Promise<TagUpdateFate> {
  return writeFate(deps, jobId, claim, 'claim');
}

export async function markApplied(deps: FateDeps, jobId: string): Promise<void> {
  await writeFate(deps, jobId, 'applied', 'set');
}
