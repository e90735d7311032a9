import type { Deps } from '../deps.ts';
import type { NotificationView } from '../schemas/notification.ts';
import { invalidRequest } from '../errors.ts';
import { findNotificationView } from './notification-view.ts';

/**
 * Cancels a send that has not started: a scheduled one, or one still waiting in the send queue. `queued` moves
 * to `canceled` in one conditional write; the send job's first count, written before any batch is queued, moves it
 * to `sending` only if it is not `canceled` (the fan-out's queueBatches), so exactly one of the two
 * wins and a notification answered as canceled never goes out. A `sending` one is canceled too (CONTRACTS §15): its
 * pushes still waiting (local time, quiet hours, throttle) are not sent, as every delivery run checks first
 * (TimingGate), while those already handed to a gateway stay sent and counted.
 */
export async function cancelNotification(
  deps: Pick<Deps, 'models' | 'queues' | 'redis' | 'config'>,
  projectId: string,
  notificationId: string,
): Promise<NotificationView> {
  const canceled = await deps.models.Notification.updateOne(
    { _id: notificationId, projectId, status: { $in: ['queued' as const, 'sending' as const] } },
    { $set: { status: 'canceled' } },
  );
  // The job is no longer needed; one a worker already holds cannot be removed and finds the send canceled.
  if (canceled.matchedCount === 1) await deps.queues.send.remove(notificationId).catch(() => 0);
  const view = await findNotificationView(deps, projectId, notificationId);
  if (view.status !== 'canceled')
    throw invalidRequest(
      `The notification is ${view.status}; only a queued, scheduled or sending one can be canceled.`,
      [{ path: '/params/notificationId', message: `is ${view.status}, not queued or sending` }],
    );
  return view;
}
