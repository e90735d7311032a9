import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { WebhookEndpointDocument } from '../models/webhook-endpoint.ts';
import type { WebhookBody, WebhookView } from '../schemas/webhook.ts';
import { invalidRequest, notFound, type ErrorDetail } from '../errors.ts';
import { fieldsOf } from '../schemas/validation.ts';
import { newestFirstListing, newestFirst } from '../models/newest-first-list.ts';
import { seal } from '../credentials/cipher.ts';
import { webhookUrlProblem } from './webhook-url.ts';
import { newWebhookSecret } from './webhook-secret.ts';
import { withRedisLock } from '../infra/redis-lock.ts';
import { redisKeys } from '../infra/redis-keys.ts';

export type StoredWebhook = WebhookEndpointDocument & { _id: string; createdAt: Date; updatedAt: Date };

/** As created: the only time its secret is answered. */
type CreatedWebhook = StoredWebhook & { plainSecret?: string };

type StoreDeps = Pick<Deps, 'models' | 'config' | 'redis'>;

/** The URL rule, also read on a body that failed its schema: a url that is not a string is the schema's to name. */
export function webhookBodyErrors(allowPrivate: boolean) {
  return (body: unknown): ErrorDetail[] => {
    const { url } = fieldsOf(body);
    if (typeof url !== 'string') return [];
    const problem = webhookUrlProblem(url, allowPrivate);
    return problem ? [{ path: '/url', message: problem }] : [];
  };
}

export function toWebhookView(webhook: CreatedWebhook): WebhookView {
  return {
    id: webhook._id,
    url: webhook.url,
    events: webhook.events,
    enabled: webhook.enabled,
    disabledReason: webhook.disabledReason ?? null,
    disabledAt: webhook.disabledAt?.toISOString() ?? null,
    ...(webhook.plainSecret !== undefined && { secret: webhook.plainSecret }),
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}

/** CONTRACTS §17: each endpoint multiplies every event's calls. */
export const maxWebhookEndpoints = 10;

const missing = (id: string) => notFound(`No webhook endpoint "${id}" in this project.`);

/** Enabling clears what the service recorded when it disabled the endpoint; disabling by hand records no reason. */
function stateFields(enabled: boolean) {
  return enabled
    ? { enabled, disabledReason: null, disabledAt: null, failingSince: null }
    : { enabled, disabledReason: null, disabledAt: new Date() };
}

/** A project's webhook endpoints (CONTRACTS §17); their URLs are checked when saved and again at every call. */
export class WebhookStore {
  private readonly deps: StoreDeps;

  constructor(deps: StoreDeps) {
    this.deps = deps;
  }

  private assertUrl(input: WebhookBody): void {
    const details = webhookBodyErrors(this.deps.config.webhooks.allowPrivate)(input);
    if (details.length > 0) throw invalidRequest('The webhook endpoint is not valid; see details.', details);
  }

  async create(projectId: string, input: WebhookBody): Promise<CreatedWebhook> {
    this.assertUrl(input);
    const lock = redisKeys.projectLimit(this.deps.config.queuePrefix, projectId, 'webhooks');
    return withRedisLock(this.deps.redis, lock, () => this.createWithinBound(projectId, input));
  }

  private async createWithinBound(projectId: string, input: WebhookBody): Promise<CreatedWebhook> {
    if ((await this.deps.models.WebhookEndpoint.countDocuments({ projectId })) >= maxWebhookEndpoints)
      throw invalidRequest(
        `A project has at most ${maxWebhookEndpoints} webhook endpoints; delete one, or subscribe an existing one to more events.`,
      );
    const plainSecret = newWebhookSecret();
    const document = await this.deps.models.WebhookEndpoint.create({
      _id: randomUUID(),
      projectId,
      url: input.url,
      events: input.events,
      ...stateFields(input.enabled ?? true),
      secret: seal(plainSecret, this.deps.config.credentialsKey),
    });
    return { ...(document.toObject() as StoredWebhook), plainSecret };
  }

  private readonly listing = newestFirstListing<StoredWebhook>((filter, count) =>
    this.deps.models.WebhookEndpoint.find(filter).sort(newestFirst).limit(count).lean<StoredWebhook[]>(),
  );
  readonly list = this.listing.list;
  readonly boundary = this.listing.boundary;

  async find(projectId: string, id: string): Promise<StoredWebhook> {
    const webhook = await this.deps.models.WebhookEndpoint.findOne({ _id: id, projectId }).lean<StoredWebhook>();
    if (!webhook) throw missing(id);
    return webhook;
  }

  async replace(projectId: string, id: string, input: WebhookBody): Promise<StoredWebhook> {
    this.assertUrl(input);
    const webhook = await this.deps.models.WebhookEndpoint.findOneAndUpdate(
      { _id: id, projectId },
      {
        $set: { url: input.url, events: input.events, ...(input.enabled !== undefined && stateFields(input.enabled)) },
      },
      { returnDocument: 'after' },
    ).lean<StoredWebhook>();
    if (!webhook) throw missing(id);
    return webhook;
  }

  async delete(projectId: string, id: string): Promise<void> {
    const result = await this.deps.models.WebhookEndpoint.deleteOne({ _id: id, projectId });
    if (result.deletedCount === 0) throw missing(id);
  }
}
