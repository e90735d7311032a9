import type { Deps } from '../deps.ts';
import { findNotificationView } from '../notifications/notification-view.ts';
import { publishWebhookEvents } from '../webhooks/publish-events.ts';
import { subscribedEndpoints } from '../webhooks/subscribed-endpoints.ts';
import { notificationCompleted } from '../webhooks/webhook-events.ts';

interface Sent {
  _id: string;
  projectId: string;
  status: string;
}

/**
 * Marks the send completed, unless canceled meanwhile, and queues notification.completed with its final stats for
 * the endpoints subscribed to it. A rerun that finds the send completed queues the event again, as a kill between the
 * two writes would otherwise lose it; its key makes that the same job.
 */
export async function completeSend(
  deps: Pick<Deps, 'models' | 'queues' | 'redis' | 'config'>,
  notification: Sent,
): Promise<void> {
  const { _id: notificationId, projectId } = notification;
  if (notification.status !== 'completed') {
    const completed = await deps.models.Notification.updateOne(
      { _id: notificationId, status: { $ne: 'canceled' } },
      { $set: { status: 'completed', completedAt: new Date() } },
    );
    if (completed.matchedCount === 0) return;
  }
  const subscriptions = await subscribedEndpoints(deps.models, projectId);
  if (!subscriptions.some((subscription) => subscription.events.has('notification.completed'))) return;
  const view = await findNotificationView(deps, projectId, notificationId);
  await publishWebhookEvents(deps, projectId, [notificationCompleted(view, new Date())]);
}
