import type { Models } from '../../src/models/index.ts';
import type { Queues } from '../../src/infra/queue-names.ts';
import { describeSendState } from './send-state.ts';

/**
 * Where the pushes of travellers that completed without one went, for a failure message: the notification each one's
 * push step recorded, whether it names them, and where its send stands in the queues. A notification that does not
 * name its travellers is a step run's lost part; one that names them, a send that has not delivered.
 */
export async function describeUnpushed(
  models: Models,
  queues: Queues,
  journeyId: string,
  subjectIds: string[],
): Promise<string> {
  const travellers = await models.JourneyTraveller.find(
    { journeyId, subjectId: { $in: subjectIds.slice(0, 100) } },
    { subjectId: 1, passed: 1 },
  ).lean();
  const bySent = new Map<string, string[]>();
  for (const traveller of travellers)
    for (const { outcome } of traveller.passed) {
      const id = typeof outcome.notificationId === 'string' ? outcome.notificationId : 'no notification';
      bySent.set(id, [...(bySent.get(id) ?? []), traveller.subjectId]);
    }
  const notifications = await models.Notification.find(
    { _id: { $in: [...bySent.keys()] } },
    { status: 1, targetIds: 1 },
  ).lean();
  const stored = new Map(notifications.map((notification) => [notification._id, notification]));
  const lines = [`${subjectIds.length} travellers without a push; the first ${travellers.length} recorded:`];
  for (const [id, subjects] of bySent) {
    const notification = stored.get(id);
    const named = subjects.filter((subject) => notification?.targetIds.includes(subject)).length;
    lines.push(
      `- ${id}: ${subjects.length} of them, ${named} named among its ${notification?.targetIds.length ?? 0} targets, ` +
        `status ${notification?.status ?? 'none stored'}`,
      notification ? await describeSendState(queues, id) : '',
    );
  }
  return lines.filter((line) => line !== '').join('\n');
}
