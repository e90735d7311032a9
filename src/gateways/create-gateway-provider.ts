import type { Config } from '../config.ts';
import type { Models } from '../models/index.ts';
import type { CredentialedGateway, GatewayProvider, PushGateway } from './gateway.ts';
import type { ClosableGateway } from './closable-gateway.ts';
import { createSandboxGateways } from './sandbox-gateways.ts';
import { loadLiveGateway, sealedCredentials, type LiveGateway } from './live-gateways.ts';
import { createWebPushGateways } from './webpush/webpush-gateways.ts';

/** How long a cached client is trusted before its credentials are compared with the stored ones again. */
const credentialsRecheckMs = 30_000;
/** Clients kept at once; the least recently used is dropped beyond this. */
const maxCachedClients = 500;
/** A dropped client may still be in the middle of a send, so it is closed only after this. */
const retiredCloseDelayMs = 60_000;

interface CachedGateway extends LiveGateway {
  checkedAt: number;
}

/** Web Push signs with each project's own VAPID key in both modes; FCM and APNs go to the sandbox or use the project's credentials. */
export function createGatewayProvider(config: Config, models: Models): GatewayProvider {
  const webPush = createWebPushGateways(config, models);
  const others =
    config.pushGateway === 'sandbox' ? createSandboxGatewayProvider(config) : createLiveGatewayProvider(config, models);
  return {
    gatewayFor: (projectId, gateway) =>
      gateway === 'webpush' ? webPush.gatewayFor(projectId) : others.gatewayFor(projectId, gateway),
    close: async () => {
      await Promise.all([webPush.close(), others.close()]);
    },
  };
}

interface CredentialedGatewayProvider {
  gatewayFor(projectId: string, gateway: CredentialedGateway): Promise<PushGateway>;
  close(): Promise<void>;
}

function createSandboxGatewayProvider(config: Config): CredentialedGatewayProvider {
  const gateways = createSandboxGateways(config.sandboxPort, config.sandboxHost);
  return {
    gatewayFor: async (_projectId, gateway) => gateways[gateway],
    close: async () => {
      await Promise.all(Object.values(gateways).map((gateway) => gateway.close()));
    },
  };
}

function createLiveGatewayProvider(config: Config, models: Models): CredentialedGatewayProvider {
  const cache = new Map<string, Promise<CachedGateway>>();
  const retiring = new Map<ClosableGateway, NodeJS.Timeout>();

  function retire(gateway: ClosableGateway): void {
    const timer = setTimeout(() => {
      retiring.delete(gateway);
      void gateway.close();
    }, retiredCloseDelayMs);
    timer.unref();
    retiring.set(gateway, timer);
  }

  function load(key: string, projectId: string, gateway: CredentialedGateway): Promise<CachedGateway> {
    const loading = loadLiveGateway(models, config.credentialsKey, projectId, gateway).then((live) => ({
      ...live,
      checkedAt: Date.now(),
    }));
    cache.set(key, loading);
    loading.catch(() => cache.delete(key));
    while (cache.size > maxCachedClients) {
      const [oldestKey, oldest] = cache.entries().next().value!;
      cache.delete(oldestKey);
      void oldest.then(
        (entry) => retire(entry.gateway),
        () => {},
      );
    }
    return loading;
  }

  /** Credentials set again since the client was built make it stale: drop it so the next send uses the new ones. */
  async function fresh(
    key: string,
    projectId: string,
    gateway: CredentialedGateway,
    cached: Promise<CachedGateway>,
  ): Promise<CachedGateway> {
    const entry = await cached;
    if (Date.now() - entry.checkedAt < credentialsRecheckMs) return entry;
    const sealed = await sealedCredentials(models, projectId, gateway);
    if ((sealed?.iv ?? null) === entry.version) {
      entry.checkedAt = Date.now();
      return entry;
    }
    // A concurrent caller may have replaced it already; only the first one retires the stale client.
    if (cache.get(key) === cached) {
      cache.delete(key);
      retire(entry.gateway);
    }
    return cache.get(key) ?? load(key, projectId, gateway);
  }

  return {
    async gatewayFor(projectId, gateway) {
      const key = `${gateway}:${projectId}`;
      const cached = cache.get(key);
      if (cached === undefined) return (await load(key, projectId, gateway)).gateway;
      // Map order is insertion order: re-inserting marks the entry most recently used.
      cache.delete(key);
      cache.set(key, cached);
      return (await fresh(key, projectId, gateway, cached)).gateway;
    },
    async close() {
      const entries = await Promise.allSettled(cache.values());
      cache.clear();
      const gateways = entries.flatMap((entry) => (entry.status === 'fulfilled' ? [entry.value.gateway] : []));
      for (const [gateway, timer] of retiring) {
        clearTimeout(timer);
        gateways.push(gateway);
      }
      retiring.clear();
      await Promise.all(gateways.map((gateway) => gateway.close()));
    },
  };
}
