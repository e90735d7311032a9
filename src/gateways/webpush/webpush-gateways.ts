import { Agent } from 'node:https';
import { connect } from 'node:tls';
import type { Config } from '../../config.ts';
import type { Models } from '../../models/index.ts';
import type { PushGateway, PushOutcome } from '../gateway.ts';
import { projectVapidKeys } from '../../webpush/vapid-keys.ts';
import { unseal } from '../../credentials/cipher.ts';
import { createWebPushGateway } from './webpush-gateway.ts';
import { connectToPublicAddressesOnly } from '../../net/public-address.ts';

/** Projects whose gateway is kept at once; the least recently used is dropped beyond this. */
const maxCachedProjects = 500;

export interface WebPushGateways {
  gatewayFor(projectId: string): Promise<PushGateway>;
  close(): Promise<void>;
}

/**
 * In sandbox mode every connection goes to the sandbox, whatever the endpoint's host: the subscriptions it issued
 * are on it anyway, and a real browser's subscription must not reach a real push service. Its certificate is
 * self-signed, so it is not verified. The Host header still names the endpoint's host, as the sandbox expects.
 */
function pushServiceAgent(config: Config): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  if (config.pushGateway === 'live') connectToPublicAddressesOnly(agent);
  else {
    agent.createConnection = () =>
      connect({
        host: config.sandboxHost,
        port: config.sandboxPort,
        rejectUnauthorized: false,
        ALPNProtocols: ['http/1.1'],
      });
  }
  return agent;
}

function failingGateway(reason: string): PushGateway {
  const outcome: PushOutcome = { kind: 'failed', reason };
  return { send: async (pushes) => pushes.map(() => outcome) };
}

/**
 * One Web Push client per project, signing with the project's VAPID key. A project's keys never change once made,
 * so a cached client is never stale; a failed load is not cached, so the next batch tries again.
 */
export function createWebPushGateways(config: Config, models: Models): WebPushGateways {
  const agent = pushServiceAgent(config);
  const cache = new Map<string, Promise<PushGateway>>();

  async function load(projectId: string): Promise<PushGateway> {
    const sealed = await projectVapidKeys(models, config.credentialsKey, projectId);
    if (sealed === null) return failingGateway('the project no longer exists');
    let privateKey: string;
    try {
      privateKey = unseal(sealed.privateKey, config.credentialsKey);
    } catch {
      // Sealed with another CREDENTIALS_KEY: the operator's to fix, and no retry helps meanwhile.
      return failingGateway('the project VAPID key cannot be decrypted with CREDENTIALS_KEY');
    }
    return createWebPushGateway({
      vapid: { publicKey: sealed.publicKey, privateKey },
      subject: config.vapidSubject,
      agent,
    });
  }

  return {
    gatewayFor(projectId) {
      let gateway = cache.get(projectId);
      if (gateway) cache.delete(projectId);
      else {
        gateway = load(projectId);
        gateway.catch(() => cache.delete(projectId));
      }
      // Map order is insertion order: re-inserting marks the entry most recently used.
      cache.set(projectId, gateway);
      while (cache.size > maxCachedProjects) cache.delete(cache.keys().next().value!);
      return gateway;
    },
    async close() {
      cache.clear();
      agent.destroy();
    },
  };
}
