import type { Models } from '../models/index.ts';
import { onePer } from '../infra/one-per.ts';

export interface Subscription {
  endpointId: string;
  events: ReadonlySet<string>;
}

/** How long a process trusts what it read of a project's endpoints: an endpoint added is called within this. */
const subscriptionsCacheMs = 5000;
/** Projects whose endpoints a process keeps at once; past this the cache starts over. */
const maxCachedProjects = 10_000;

interface Cached {
  expires: number;
  subscriptions: Promise<Subscription[]>;
}

const cacheOf = onePer((_models: Pick<Models, 'WebhookEndpoint'>) => new Map<string, Cached>());

export const enabledEndpointsQuery = (models: Pick<Models, 'WebhookEndpoint'>, projectId: string) =>
  models.WebhookEndpoint.find({ projectId, enabled: true }, { events: 1 }).lean();

async function read(models: Pick<Models, 'WebhookEndpoint'>, projectId: string): Promise<Subscription[]> {
  const endpoints = await enabledEndpointsQuery(models, projectId);
  return endpoints.map((endpoint) => ({ endpointId: endpoint._id, events: new Set(endpoint.events) }));
}

/**
 * The project's enabled endpoints and the events each takes, read at most once per subscriptionsCacheMs per process:
 * a delivery batch asks at every gateway call, and a project without endpoints must cost it nothing more. An endpoint
 * disabled meanwhile is not called: the webhook worker reads the endpoint itself before each call.
 */
export function subscribedEndpoints(
  models: Pick<Models, 'WebhookEndpoint'>,
  projectId: string,
): Promise<Subscription[]> {
  const cache = cacheOf(models);
  const now = Date.now();
  const cached = cache.get(projectId);
  if (cached && cached.expires > now) return cached.subscriptions;
  if (cache.size >= maxCachedProjects) cache.clear();
  const subscriptions = read(models, projectId);
  cache.set(projectId, { expires: now + subscriptionsCacheMs, subscriptions });
  // A failed read is not kept: the next event reads again.
  subscriptions.catch(() => cache.delete(projectId));
  return subscriptions;
}
