import type { Deps } from '../deps.ts';
import { enqueueWebhookJobs, type KeyedWebhookEvent } from '../queues/webhook.ts';
import { subscribedEndpoints } from './subscribed-endpoints.ts';

/**
 * Queues each event for every enabled endpoint of the project subscribed to its type, all in one addBulk; with no
 * such endpoint it queues nothing and, most of the time, reads nothing (subscribedEndpoints caches). Every source of
 * events calls this (in-app messages included): keys make an event queued twice one job.
 */
export async function publishWebhookEvents(
  deps: Pick<Deps, 'models' | 'queues'>,
  projectId: string,
  events: KeyedWebhookEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const subscriptions = await subscribedEndpoints(deps.models, projectId);
  if (subscriptions.length === 0) return;
  const jobs = events.flatMap(({ key, event }) =>
    subscriptions
      .filter((subscription) => subscription.events.has(event.type))
      .map((subscription) => ({ projectId, endpointId: subscription.endpointId, event, key })),
  );
  await enqueueWebhookJobs(deps, jobs);
}
