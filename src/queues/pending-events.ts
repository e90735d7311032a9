import type { Deps } from '../deps.ts';
import type { RedisClient } from '../infra/redis.ts';
import { eventIngestJobPrefix } from './event-ingest.ts';

/** The key under which pendingEventsSince answers for the jobs whose project their name does not say. */
export const anyProject = '*';

/** How many jobs of each of the queue's lists and sets are read; the rest of a longer wait list is newer. */
const jobsReadPerKey = 5000;

/*
 * The oldest creation time among the event-ingest jobs not yet finished, per project named by the job's name: waiting
 * (BullMQ pushes on the left and takes from the right, so the right end is the oldest; a promoted retry is pushed on
 * the left, hence the other end too), running, waiting for their retry or prioritized. A wait list longer than the
 * jobs read answers for every project with the newest job read, which is no later than any job left unread.
 */
const pendingScript = `
local prefix, most, namePrefix = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local oldest = {}
local function consider(id)
  local job = redis.call('HMGET', prefix .. id, 'timestamp', 'name')
  local at = tonumber(job[1])
  if not at then return end
  local project = '${anyProject}'
  if job[2] and string.sub(job[2], 1, #namePrefix) == namePrefix then project = string.sub(job[2], #namePrefix + 1) end
  if not oldest[project] or at < oldest[project] then oldest[project] = at end
end
local waiting = redis.call('LRANGE', KEYS[1], -most, -1)
for _, id in ipairs(waiting) do consider(id) end
if redis.call('LLEN', KEYS[1]) > most then
  consider(redis.call('LINDEX', KEYS[1], 0))
  local bound = tonumber(redis.call('HGET', prefix .. waiting[1], 'timestamp'))
  if bound and (not oldest['${anyProject}'] or bound < oldest['${anyProject}']) then oldest['${anyProject}'] = bound end
end
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
 * oldest of them was accepted, in ms; under anyProject, for the jobs of every project. A project absent has none.
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
