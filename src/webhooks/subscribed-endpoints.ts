import type { Models } from '../models/index.ts';
import { weakMemoize } from '../infra/weak-memoize.ts';
import { ShortLivedCache } from '../infra/short-lived-cache.ts';

export interface Subscription {
  endpointId: string;
  events: ReadonlySet<string>;
}

/** How long a process trusts what it read of a project's endpoints: an endpoint added is called within this. */
const subscriptionsCacheMs = 5000;

const cacheOf = weakMemoize(
  (_models: Pick<Models, 'WebhookEndpoint'>) => new ShortLivedCache<Subscription[]>(subscriptionsCacheMs),
);

export const enabledEndpointsQuery = (models: Pick<Models, 'WebhookEndpoint'>, projectId: string) =>
  models.WebhookEndpoint.find({ projectId, enabled: true }, { events: 1 }).lean();

async function read(models: Pick<Models, 'WebhookEndpoint'>, projectId: string): Promise<Subscription[]> {
  const endpoints = await enabledEndpointsQuery(models, projectId);
  return endpoints.map((endpoint) => ({ endpointId: endpoint._id, events: new Set(endpoint.events) }));
}

/**
 * The project's enabled endpoints and the events each takes, read at most once per subscriptionsCacheMs per process:
 * a delivery batch asks at every gateway call, and a project without endpoints must cost it nothing more. An endpoint
 * disabled meanwhile is not called: the webhook worker reads the endpoint itself (endpointCache) before each call.
 */
export function subscribedEndpoints(
  models: Pick<Models, 'WebhookEndpoint'>,
  projectId: string,
): Promise<Subscription[]> {
  return cacheOf(models).get(projectId, () => read(models, projectId));
}
