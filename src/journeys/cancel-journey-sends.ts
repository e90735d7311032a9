import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';

/**
 * The journey's sends still waiting for their delay become canceled and their delayed jobs are removed. A send
 * that starts meanwhile finds the journey inactive or gone and cancels itself (src/delivery/send-processor.ts).
 */
export async function cancelJourneySends(deps: Pick<Deps, 'models' | 'queues'>, journeyId: string): Promise<void> {
  const pending = await pendingJourneySendsQuery(deps.models, journeyId);
  if (pending.length === 0) return;
  const ids = pending.map((notification) => notification._id);
  await deps.models.Notification.updateMany({ _id: { $in: ids }, status: 'queued' }, { $set: { status: 'canceled' } });
  // A job that a worker has just taken cannot be removed; it cancels itself when it reads the journey.
  await Promise.all(ids.map((id) => deps.queues.send.remove(id).catch(() => 0)));
}

export function pendingJourneySendsQuery(models: Models, journeyId: string) {
  return models.Notification.find({ journeyId, status: 'queued' }, { _id: 1 }).lean();
}

/** Whether a journey's triggered send may still go out. */
export async function isJourneyActive(models: Models, journeyId: string): Promise<boolean> {
  const journey = await models.Journey.findById(journeyId, { active: 1 }).lean();
  return journey?.active === true;
}
