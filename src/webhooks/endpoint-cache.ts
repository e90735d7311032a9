import type { Models } from '../models/index.ts';
import { ShortLivedCache } from '../infra/short-lived-cache.ts';
import { unseal, type Sealed } from '../credentials/cipher.ts';

/**
 * How long a webhook worker trusts what it read of an endpoint: an endpoint the customer disables, deletes or
 * unsubscribes from a type is no longer called within this.
 */
const endpointCacheMs = 1000;

/** What a call needs of its endpoint, the secret unsealed. */
export interface CallableEndpoint {
  url: string;
  secret: string;
  events: ReadonlySet<string>;
  enabled: boolean;
  failingSince: Date | null;
}

/**
 * The endpoints of the webhook worker's calls, each read once per endpointCacheMs rather than once per call: at a
 * send's burst of events the reads would cost the database as much as the calls' own writes. The worker forgets an
 * endpoint whose state it changes (a failure, a recovery, a 410), so that its next call reads what it wrote.
 */
export class EndpointCache {
  private readonly models: Pick<Models, 'WebhookEndpoint'>;
  private readonly credentialsKey: Buffer;
  private readonly endpoints = new ShortLivedCache<CallableEndpoint | null>(endpointCacheMs);

  constructor(models: Pick<Models, 'WebhookEndpoint'>, credentialsKey: Buffer) {
    this.models = models;
    this.credentialsKey = credentialsKey;
  }

  /** The project's endpoint, or null when it has none of this id. */
  read(projectId: string, endpointId: string): Promise<CallableEndpoint | null> {
    return this.endpoints.get(`${projectId}:${endpointId}`, async () => {
      const endpoint = await this.models.WebhookEndpoint.findOne({ _id: endpointId, projectId }).lean();
      if (!endpoint) return null;
      return {
        url: endpoint.url,
        secret: unseal(endpoint.secret as Sealed, this.credentialsKey),
        events: new Set(endpoint.events),
        enabled: endpoint.enabled,
        failingSince: endpoint.failingSince ?? null,
      };
    });
  }

  forget(projectId: string, endpointId: string): void {
    this.endpoints.forget(`${projectId}:${endpointId}`);
  }
}
