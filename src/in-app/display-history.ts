import type { Models } from '../models/index.ts';
import type { InAppFrequency } from '../schemas/in-app-message.ts';
import { dayMs } from '../events/utc-day.ts';
import { inAppEvents } from './in-app-events.ts';

/**
 * When the device last reported @iam_displayed for each message, grouped on the server from the device's own events
 * through the (projectId, subjectType, subjectId, type, receivedAt) index: bounded by that device's showings.
 */
export const lastDisplayedPipeline = (projectId: string, deviceId: string) => [
  { $match: { projectId, subjectType: 'device', subjectId: deviceId, type: inAppEvents.displayed } },
  { $group: { _id: '$data.inAppMessageId', last: { $max: '$receivedAt' } } },
];

export type LastDisplayed = Map<string, Date>;

export async function lastDisplayed(models: Models, projectId: string, deviceId: string): Promise<LastDisplayed> {
  const rows = await models.Event.aggregate<{ _id: unknown; last: Date }>(lastDisplayedPipeline(projectId, deviceId));
  return new Map(rows.filter((row) => typeof row._id === 'string').map((row) => [row._id as string, row.last]));
}

/** once: never again; everyDays: not within that many days of the last showing; always: each time. */
export function frequencyAllows(frequency: InAppFrequency, last: Date | undefined, now: Date): boolean {
  if (last === undefined || frequency === 'always') return true;
  if (frequency === 'once') return false;
  return now.getTime() - last.getTime() >= frequency.everyDays * dayMs;
}
