import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';

/**
 * The journey's sends still waiting for their delay become canceled and their delayed jobs are removed. A send
 * that a worker has taken meanwhile cannot be removed: it settles with this cancelation in claimJourneySend.
 */
export async function cancelJourneySends(deps: Pick<Deps, 'models' | 'queues'>, journeyId: string): Promise<void> {
  const pending = await pendingJourneySendsQuery(deps.models, journeyId);
  if (pending.length === 0) return;
  const ids = pending.map((notification) => notification._id);
  await deps.models.Notification.updateMany({ _id: { $in: ids }, status: 'queued' }, { $set: { status: 'canceled' } });
  await Promise.all(ids.map((id) => deps.queues.send.remove(id).catch(() => 0)));
}

export function pendingJourneySendsQuery(models: Models, journeyId: string) {
  return models.Notification.find({ journeyId, status: 'queued' }, { _id: 1 }).lean();
}

/**
 * Whether a journey's send, still queued, may go out now. Not if its journey is gone: it becomes
 * canceled. Otherwise it moves from queued to sending in one conditional write, which a deactivation's cancelation
 * (also conditional on queued) either precedes, and the send stays canceled and sends nothing, or follows, and leaves
 * it alone: a notification shown canceled never goes out afterwards.
 */
export async function claimJourneySend(models: Models, notificationId: string, journeyId: string): Promise<boolean> {
  const stillQueued = { _id: notificationId, status: 'queued' as const };
  const journey = await models.Journey.exists({ _id: journeyId });
  if (!journey) {
    await models.Notification.updateOne(stillQueued, { $set: { status: 'canceled' } });
    return false;
  }
  const claimed = await models.Notification.updateOne(stillQueued, { $set: { status: 'sending' } });
  if (claimed.matchedCount === 1) return true;
  // Not queued any more: canceled meanwhile, or claimed by another run of this job (one whose lock lapsed).
  const current = await models.Notification.findById(notificationId, { status: 1 }).lean();
  return current?.status === 'sending';
}
