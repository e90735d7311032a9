import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { Conversion } from '../schemas/conversions.ts';
import type { SubjectType } from '../schemas/events.ts';
import { publishWebhookEvents } from '../webhooks/publish-events.ts';
import { messageConverted } from '../webhooks/webhook-events.ts';
import { dailyCounts, dayCountField, dayKey } from '../overview/daily-counts.ts';
import { addGatheredCounts } from '../infra/flush-gathered-counts.ts';
import { startOfUtcDay } from '../infra/utc-day.ts';

/** An ingested event, under the id it is stored with: a retried job presents the same ids. */
export interface IngestedConversion {
  id: string;
  type: string;
  subjectType: SubjectType;
  subjectId: string;
  data: Record<string, unknown>;
  /** When it was received, in milliseconds: the end of the window looked back over; the same for a batch's events. */
  at: number;
}

/**
 * In one step, so that nothing is counted twice nor lost between two writes: the subject's last push in the window,
 * whether it was already credited with this event (the mark, kept for the window, after which no event can reach the
 * push), and if not, the counts. A mark holding this event's own id is a retry of it: the push is answered again, so
 * that its webhook event, lost with the run that counted it, is published (the event's key makes it one), but nothing
 * is counted again.
 */
const creditScript = `
local found = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1] - ARGV[2], 'LIMIT', 0, 1)
local member = found[1]
if member == nil then return false end
local newline = string.find(member, '\\n', 1, true)
local notificationId = newline and string.sub(member, 1, newline - 1) or member
local mark = ARGV[3] .. notificationId .. '\\n' .. ARGV[5] .. '\\n' .. ARGV[6]
if not redis.call('SET', mark, ARGV[7], 'NX', 'EX', ARGV[9]) then
  if redis.call('GET', mark) == ARGV[7] then return member end
  return false
end
local counts = ARGV[4] .. notificationId
local fields = { ARGV[6] }
if newline then table.insert(fields, ARGV[6] .. '\\n' .. string.sub(member, newline + 1)) end
for _, field in ipairs(fields) do
  redis.call('HINCRBY', counts, 'count\\n' .. field, 1)
  if ARGV[8] ~= '' then redis.call('HINCRBYFLOAT', counts, 'value\\n' .. field, ARGV[8]) end
end
return member
`;

function conversionValue(conversion: Conversion, event: IngestedConversion): number | undefined {
  if (conversion.valueField === undefined) return undefined;
  const value = event.data[conversion.valueField];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** How long a batch's mark that its credits were added to its day lasts: past any retry of its job. */
const dayCountMarkerSeconds = 3600;

/**
 * Credits each event of a conversion type to its subject's last push sent (or clicked) within the conversion's window
 * (CONTRACTS §19): one Redis script per such event, nothing for events of other types; then queues message.converted
 * for the credited ones, and adds them to the overview's day (gathered, once per `batch`: a retried batch finds its own
 * credits again, counted once).
 */
export async function attributeConversions(
  deps: Pick<Deps, 'redis' | 'config' | 'models' | 'queues' | 'log'>,
  projectId: string,
  conversions: Conversion[],
  events: IngestedConversion[],
  batch: string,
): Promise<void> {
  if (conversions.length === 0) return;
  const byEvent = new Map(conversions.map((conversion) => [conversion.event, conversion]));
  const keys = redisKeys.conversions(deps.config.queuePrefix, projectId);
  const credits = await Promise.all(
    events.map(async (event) => {
      const conversion = byEvent.get(event.type);
      if (conversion === undefined) return [];
      const value = conversionValue(conversion, event);
      const windowSeconds = conversion.windowHours * 3600;
      const member = (await deps.redis.eval(
        creditScript,
        1,
        keys.touches(conversion.attribution, event.subjectType, event.subjectId),
        event.at,
        windowSeconds * 1000,
        keys.creditedPrefix,
        keys.countsPrefix,
        `${event.subjectType}:${event.subjectId}`,
        event.type,
        event.id,
        value === undefined ? '' : String(value),
        windowSeconds,
      )) as string | null;
      if (member === null) return [];
      const notificationId = member.split('\n')[0]!;
      return [messageConverted({ notificationId, ...event, ...(value !== undefined && { value }) })];
    }),
  );
  const credited = credits.flat();
  await publishWebhookEvents(deps, projectId, credited);
  if (credited.length === 0) return;
  const field = dayCountField(dayKey(startOfUtcDay(new Date(events[0]!.at))), 'conversions');
  await addGatheredCounts(deps, dailyCounts, projectId, new Map([[field, credited.length]]), {
    once: { marker: `conversions:${batch}`, seconds: dayCountMarkerSeconds },
  });
}
