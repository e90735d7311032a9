import type { Deps } from '../deps.ts';
import { enqueueWebhookJobs, webhookJobsFor, type KeyedWebhookEvent } from '../queues/webhook.ts';
import { subscribedEndpoints } from './subscribed-endpoints.ts';

/**
 * Queues the events for every enabled endpoint of the project subscribed to their types, each endpoint's in as few
 * jobs as they fit, all in one addBulk; with no such endpoint it queues nothing and, most of the time, reads nothing
 * (subscribedEndpoints caches). Every source of events calls this (in-app messages included): keys make an event
 * queued twice the same event.
 */
export async function publishWebhookEvents(
  deps: Pick<Deps, 'models' | 'queues'>,
  projectId: string,
  events: KeyedWebhookEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const subscriptions = await subscribedEndpoints(deps.models, projectId);
  const jobs = subscriptions.flatMap(({ endpointId, events: types }) =>
    webhookJobsFor(
      projectId,
      endpointId,
      events.filter(({ event }) => types.has(event.type)),
    ),
  );
  await enqueueWebhookJobs(deps, jobs);
}
