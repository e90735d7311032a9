import type { Models } from '../models/index.ts';
import type { InAppStats } from '../schemas/in-app-message.ts';
import { inAppEvents, type InAppEventName } from '../schemas/in-app-events.ts';

const eventNames = Object.keys(inAppEvents) as InAppEventName[];

/**
 * Distinct devices per in-app event of one message, in one aggregate served by the events'
 * (projectId, data.inAppMessageId, subjectType, type, subjectId) index: bounded by that message's own reports.
 */
export const inAppStatsPipeline = (projectId: string, messageId: string) => [
  {
    $match: {
      projectId,
      'data.inAppMessageId': messageId,
      subjectType: 'device',
      type: { $in: Object.values(inAppEvents) },
    },
  },
  { $group: { _id: { type: '$type', device: '$subjectId' } } },
  { $group: { _id: '$_id.type', devices: { $sum: 1 } } },
];

export async function inAppStats(models: Models, projectId: string, messageId: string): Promise<InAppStats> {
  const counts = await models.Event.aggregate<{ _id: string; devices: number }>(
    inAppStatsPipeline(projectId, messageId),
  );
  const byType = new Map(counts.map((count) => [count._id, count.devices]));
  return Object.fromEntries(eventNames.map((name) => [name, byType.get(inAppEvents[name]) ?? 0])) as InAppStats;
}
