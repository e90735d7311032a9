import type { Deps } from '../deps.ts';
import type { RedisClient } from '../infra/redis.ts';
import { eventIngestJobPrefix } from './event-ingest.ts';

/**
 * How many jobs of each of the queue's lists and sets are read. A project whose pending jobs all lie beyond, in a wait
 * list of more jobs, is not found: its timeouts run without waiting, rather than every project's waiting for the one
 * that floods the queue.
 */
const jobsReadPerKey = 5000;

/*
 * The oldest creation time among the event-ingest jobs not yet finished, per project named by the job's name: waiting
 * (BullMQ pushes on the left and takes from the right, so the right end is the oldest; a retry is pushed back on the
 * left, which a list longer than the jobs read leaves unread), running, waiting for their retry or prioritized. Jobs
 * named before names said their project are left out.
 */
const pendingScript = `
local prefix, most, namePrefix = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local oldest = {}
local function consider(id)
  local job = redis.call('HMGET', prefix .. id, 'timestamp', 'name')
  local at = tonumber(job[1])
  if not at or not job[2] or string.sub(job[2], 1, #namePrefix) ~= namePrefix then return end
  local project = string.sub(job[2], #namePrefix + 1)
  if not oldest[project] or at < oldest[project] then oldest[project] = at end
end
for _, id in ipairs(redis.call('LRANGE', KEYS[1], -most, -1)) do consider(id) end
for _, id in ipairs(redis.call('LRANGE', KEYS[2], 0, most - 1)) do consider(id) end
for i = 3, #KEYS do
  for _, id in ipairs(redis.call('ZRANGE', KEYS[i], 0, most - 1)) do consider(id) end
end
local answer = {}
for project, at in pairs(oldest) do
  answer[#answer + 1] = project
  answer[#answer + 1] = at
end
return answer`;

/**
 * For each project with events accepted and not yet ingested (stored and matched with the journeys' rules), when the
 * oldest of them was accepted, in ms. A project absent has none.
 */
export async function pendingEventsSince(deps: Pick<Deps, 'queues'>): Promise<Map<string, number>> {
  const queue = deps.queues.eventIngest;
  // The queue's own connection, where its keys are: an ioredis client, as createQueues makes every queue's.
  const client = (await queue.getBackend().client) as unknown as RedisClient;
  const keys = [queue.keys.wait!, queue.keys.active!, queue.keys.delayed!, queue.keys.prioritized!];
  const answer = (await client.eval(
    pendingScript,
    keys.length,
    ...keys,
    queue.toKey(''),
    jobsReadPerKey,
    eventIngestJobPrefix,
  )) as Array<string | number>;
  const since = new Map<string, number>();
  for (let index = 0; index < answer.length; index += 2) since.set(String(answer[index]), Number(answer[index + 1]));
  return since;
}
