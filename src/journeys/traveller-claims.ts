import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { Traveller } from './steps/step-context.ts';

type ClaimDeps = Pick<Deps, 'redis' | 'config'>;

/** Whether a claimed traveller is held in Redis (its record still due), rather than by its record (running). */
export const claimedInRedis = (traveller: Pick<Traveller, 'state'>) => traveller.state === 'due';

/** A due traveller's step run: the traveller, and its step count, which every move of it raises. */
export interface StepRunKey {
  _id: string;
  seq: number;
}

/**
 * How long a claim's key outlives its lease: a key is deleted once its step run is recorded, so one left names a run a
 * worker died in, or let go unrecorded; a runner that finds its traveller due again within this takes the step run
 * over under the same runId. A held traveller's runId is also stored on its record, for pauses longer than this.
 */
const claimKeepMs = 30 * 24 * 3600 * 1000;

/** Lua: `now`, the Redis clock in milliseconds, the same for every worker. */
const redisNowMs = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

/** Lua: a claim key's `held` value as its owner, runId, step count (-1 when unreadable) and lease end. */
const parseHeldKey = `local owner, run, heldSeq, leaseEnd = string.match(held, '^(%S+) (%S+) (%d+) (%d+)$')
heldSeq = tonumber(heldSeq) or -1`;

/*
 * A key left by an earlier step (a lower seq) is free; one of a later step (a read older than the traveller's last
 * move) is not; one of this step is free when this claim holds it or its lease lapsed (by the Redis clock, the same for
 * every worker), and is taken under the runId it names, so that a step run taken over keeps its own. A free key is
 * otherwise taken under the claim. Answers each traveller's runId, or false when it is not free.
 */
const claimScript = `
local claim, leaseMs, keepMs = ARGV[1], tonumber(ARGV[2]), ARGV[3]
${redisNowMs}
local runIds = {}
for i = 1, #KEYS do
  local seq = tonumber(ARGV[3 + i])
  local runId = claim
  local free = true
  local held = redis.call('GET', KEYS[i])
  if held then
    ${parseHeldKey}
    if heldSeq > seq then
      free = false
    elseif heldSeq == seq then
      runId = run
      free = owner == claim or tonumber(leaseEnd) <= now
    end
  end
  if free then
    redis.call('SET', KEYS[i], claim .. ' ' .. runId .. ' ' .. seq .. ' ' .. (now + leaseMs), 'PX', keepMs)
    runIds[i] = runId
  else
    runIds[i] = false
  end
end
return runIds`;

/**
 * A step runner's hold on the due travellers it runs, kept in Redis rather than written on their records: a traveller's
 * record is then written once per step, by the step's move, which is conditional on the traveller still being at that
 * step (its seq). A claim's key names the claim, the runId its step runs under and until when the lease holds; a
 * worker that dies holding it leaves the traveller due in MongoDB, and the next claim after the lease takes the step
 * run over under the same runId, which keys what a push, setTags or webhook step writes: a rerun sends nothing twice.
 * Answers the runId of each traveller taken; those a live claim holds are left out.
 */
export async function claimStepRuns(
  deps: ClaimDeps,
  claim: string,
  leaseMs: number,
  travellers: StepRunKey[],
): Promise<Map<string, string>> {
  if (travellers.length === 0) return new Map();
  const keys = travellers.map(({ _id }) => redisKeys.journeyClaim(deps.config.queuePrefix, _id));
  const seqs = travellers.map(({ seq }) => String(seq));
  const answers = (await deps.redis.eval(
    claimScript,
    keys.length,
    ...keys,
    claim,
    leaseMs,
    claimKeepMs,
    ...seqs,
  )) as Array<string | null>;
  const runIds = new Map<string, string>();
  travellers.forEach(({ _id }, index) => {
    const runId = answers[index];
    if (runId) runIds.set(_id, runId);
  });
  return runIds;
}

/*
 * Only the claim's own keys (one taken over after its lease lapsed belongs to the claim that took it): deleted once
 * their step run is recorded, else their lease ended now, the step run's runId kept for the claim that takes it next.
 */
const releaseScript = `
for i = 1, #KEYS do
  local held = redis.call('GET', KEYS[i])
  if held then
    local owner, rest = string.match(held, '^(%S+) (%S+ %S+) ')
    if owner == ARGV[1] then
      if ARGV[2] == 'recorded' then redis.call('DEL', KEYS[i])
      else redis.call('SET', KEYS[i], owner .. ' ' .. rest .. ' 0', 'KEEPTTL') end
    end
  end
end`;

/**
 * Lets the claim's step runs go: `recorded` once their move or failure is written, or their runId stored on their held
 * record (or they left, or an event moved them on); `unrun` when their step did not run for this claim and may still
 * (paused, or found not due), so that its next claim runs it under the same runId: the step may have run for a worker
 * that died before recording it.
 */
export async function releaseStepRuns(
  deps: ClaimDeps,
  claim: string,
  travellerIds: string[],
  outcome: 'recorded' | 'unrun',
): Promise<void> {
  if (travellerIds.length === 0) return;
  const keys = travellerIds.map((id) => redisKeys.journeyClaim(deps.config.queuePrefix, id));
  await deps.redis.eval(releaseScript, keys.length, ...keys, claim, outcome);
}

/*
 * Free unless a step run holds the traveller at the same step (a claim of its timeout, live, or lapsed with the step
 * maybe run), or a later one; the event's own claim (its job run again) does not hold it, nor a claim let go unrun
 * under its own runId (one let go under an earlier claim's took over a step run that may have run).
 */
const eventHoldScript = `
local claim, seq = ARGV[1], tonumber(ARGV[2])
local held = redis.call('GET', KEYS[1])
if held then
  ${parseHeldKey}
  local letGoUnrun = leaseEnd == '0' and run == owner
  if heldSeq > seq or (heldSeq == seq and owner ~= claim and not letGoUnrun) then return 0 end
end
${redisNowMs}
redis.call('SET', KEYS[1], claim .. ' ' .. claim .. ' ' .. seq .. ' ' .. (now + tonumber(ARGV[3])), 'PX', ARGV[4])
return 1`;

/**
 * An event's hold lasts this many step-run leases: a write slower than its lease (a failover and the driver's retry)
 * would otherwise land after a step runner took the hold over and sent the reminder. A job retried takes it back.
 */
const eventHoldLeases = 5;

/**
 * An event's hold on a listening traveller at its step count, taken before the event moves it, in the key a step run
 * claims (claimStepRuns): a traveller whose timeout the step runner holds does not hear it, since the step after the
 * timeout may already have run for it (foldAfterTimeout); nor does the runner take one an event holds. Answers whether
 * the event holds it; releaseStepRuns lets it go.
 */
export async function holdForEvent(deps: ClaimDeps, claim: string, traveller: StepRunKey): Promise<boolean> {
  const key = redisKeys.journeyClaim(deps.config.queuePrefix, traveller._id);
  const args = [claim, traveller.seq, eventHoldLeases * deps.config.journeyClaimLeaseMs, claimKeepMs];
  return (await deps.redis.eval(eventHoldScript, 1, key, ...args)) === 1;
}
