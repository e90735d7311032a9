import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/**
 * A step runner's hold on the travellers it runs, kept in Redis rather than on their records, so that a traveller's
 * record is written once per step (its move) and not also by a claim. Each step run a claim holds, a traveller's
 * (traveller, seq), is a key naming the claim, the runId it runs under and until when the claim's lease holds. A lease
 * that lapsed (its worker died) leaves the traveller due in MongoDB, and the next claim takes it over under the same
 * runId, which keys what a push, setTags or webhook step writes: a rerun sends nothing twice. Redis keeps the keys as
 * it keeps the send jobs (append-only file).
 */
type ClaimDeps = Pick<Deps, 'redis' | 'config'>;

/**
 * How long a step run's key outlives its lease: long enough for any runner to find its traveller due again and take
 * it over with the same runId, after which the key is a leftover of a step run long recorded.
 */
const stepRunKeepMs = 7 * 24 * 3600 * 1000;

// Free when unheld or when its lease lapsed (by the Redis clock, the same for every worker); taken under its runId.
const claimScript = `
local claim, leaseMs = ARGV[1], tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local runIds = {}
for i = 1, #KEYS do
  local held = redis.call('GET', KEYS[i])
  local runId = claim
  local free = true
  if held then
    local owner, run, leaseEnd = string.match(held, '^(%S+) (%S+) (%d+)$')
    runId = run
    free = owner == claim or tonumber(leaseEnd) <= now
  end
  if free then
    redis.call('SET', KEYS[i], claim .. ' ' .. runId .. ' ' .. (now + leaseMs), 'PX', ARGV[3])
    runIds[i] = runId
  else
    runIds[i] = false
  end
end
return runIds`;

// Only the claim's own keys: a step run taken over meanwhile is the new holder's to let go.
const releaseScript = `
for i = 1, #KEYS do
  local held = redis.call('GET', KEYS[i])
  if held and string.sub(held, 1, #ARGV[1] + 1) == ARGV[1] .. ' ' then redis.call('DEL', KEYS[i]) end
end
return 0`;

export interface StepRunKey {
  _id: string;
  seq: number;
}

const keysOf = (deps: ClaimDeps, travellers: StepRunKey[]) =>
  travellers.map(({ _id, seq }) => redisKeys.journeyStepRun(deps.config.queuePrefix, _id, seq));

/**
 * Takes the step runs of `found` that no live claim holds for `claim`, under a lease of `leaseMs` from now (0: lapsed
 * at once). Answers the runId of each taken, by traveller: the claim's own for a step run not held before, the one it
 * was first taken under for one whose lease lapsed.
 */
export async function claimStepRuns(
  deps: ClaimDeps,
  claim: string,
  leaseMs: number,
  found: StepRunKey[],
): Promise<Map<string, string>> {
  if (found.length === 0) return new Map();
  const keys = keysOf(deps, found);
  const lease = Math.max(0, Math.round(leaseMs));
  const runIds = (await deps.redis.eval(
    claimScript,
    keys.length,
    ...keys,
    claim,
    lease,
    lease + stepRunKeepMs,
  )) as Array<string | null>;
  const taken = new Map<string, string>();
  found.forEach(({ _id }, index) => {
    const runId = runIds[index];
    if (runId) taken.set(_id, runId);
  });
  return taken;
}

/** Lets go of the claim's step runs of these travellers: recorded, or no longer theirs to run. */
export async function releaseStepRuns(deps: ClaimDeps, claim: string, travellers: StepRunKey[]): Promise<void> {
  if (travellers.length === 0) return;
  const keys = keysOf(deps, travellers);
  await deps.redis.eval(releaseScript, keys.length, ...keys, claim);
}

/** The claim holding the traveller's step run `seq` (its lease live or lapsed), or null when none does. */
export async function stepRunHolder(deps: ClaimDeps, travellerId: string, seq: number): Promise<string | null> {
  const held = await deps.redis.get(redisKeys.journeyStepRun(deps.config.queuePrefix, travellerId, seq));
  return held?.split(' ')[0] ?? null;
}
