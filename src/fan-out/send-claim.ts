import type { Deps } from '../deps.ts';

export type SendDeps = Pick<Deps, 'models' | 'queues' | 'redis' | 'config' | 'log'>;

/** Canceled before its first batch was queued, or completed by a run of the send that overtook this one: it ends here. */
export class SendCanceledError extends Error {}

/**
 * Writes the send's count of devices queued, and other fields of its fan-out, as the send goes out. The status rides on
 * this write rather than costing one of its own (a send to a few users is a handful of journaled writes); 'failed' too
 * becomes 'sending': a replayed send resumes; 'completed' never goes back, as a run that a later one overtook (its
 * lock lapsed) must not undo that run's end. It also claims the send from a cancelation, which moves only a queued or
 * sending notification (cancelNotification): either the cancelation came first and nothing is queued, or it finds
 * the send already going out.
 */
export async function claimSending(
  models: SendDeps['models'],
  notificationId: string,
  fields: { 'stats.targeted': number } & Record<string, unknown>,
): Promise<void> {
  const claimed = await models.Notification.updateOne(
    { _id: notificationId, status: { $nin: ['canceled' as const, 'completed' as const] } },
    { $set: { ...fields, status: 'sending' } },
  );
  if (claimed.matchedCount === 0) throw new SendCanceledError();
}
