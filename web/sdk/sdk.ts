import type { InitializeOptions, PushEngineSdk } from './types.ts';
import { ApiClient } from './api-client.ts';
import { clientStateKey, readOrCreate, writeState, type ClientState } from './storage.ts';

const defaultServiceWorkerPath = '/push-engine-sw.js';

interface DeviceView {
  isSubscribed: boolean;
}

interface Session {
  client: ApiClient;
  projectPath: string;
  devicePath: string;
  deviceId: string;
  /** The service worker's registration, or why there is none (subscribe() reports it). */
  worker: Promise<ServiceWorkerRegistration>;
  /** The device as the service last answered it. */
  isSubscribed: boolean;
}

/** Safari on iOS offers notifications only to sites added to the home screen. */
function notificationsSupported(): boolean {
  return typeof Notification !== 'undefined';
}

function newDeviceId(): string {
  return `web-${crypto.randomUUID()}`;
}

/** The registration body for the browser's current push state: its subscription, or none (CONTRACTS §3). */
function registrationBody(subscription: PushSubscription | null): object {
  return subscription === null ? { platform: 'web' } : { platform: 'web', webPush: subscription.toJSON() };
}

async function currentSubscription(worker: Promise<ServiceWorkerRegistration>): Promise<PushSubscription | null> {
  try {
    return await (await worker).pushManager.getSubscription();
  } catch {
    return null;
  }
}

export function createSdk(): PushEngineSdk {
  let session: Promise<Session> | undefined;

  function started(): Promise<Session> {
    if (session === undefined)
      return Promise.reject(new Error('Call PushEngine.initialize({ projectId, clientKey, baseUrl }) first.'));
    return session;
  }

  async function register(current: Session, subscription: PushSubscription | null): Promise<void> {
    const device = await current.client.call<DeviceView>({
      method: 'PUT',
      path: current.devicePath,
      body: registrationBody(subscription),
    });
    current.isSubscribed = device.isSubscribed;
  }

  async function start(options: InitializeOptions): Promise<Session> {
    const deviceId = await readOrCreate('deviceId', newDeviceId);
    const state: ClientState = {
      projectId: options.projectId,
      clientKey: options.clientKey,
      baseUrl: options.baseUrl,
      deviceId,
    };
    await writeState(clientStateKey, state);
    const worker =
      'serviceWorker' in navigator
        ? navigator.serviceWorker.register(options.serviceWorkerPath ?? defaultServiceWorkerPath)
        : Promise.reject(new Error('This browser has no service workers, so it cannot receive push notifications.'));
    worker.catch(() => undefined);
    const projectPath = `/v1/sdk/projects/${encodeURIComponent(options.projectId)}`;
    const current: Session = {
      client: new ApiClient(options.baseUrl, options.clientKey),
      projectPath,
      devicePath: `${projectPath}/devices/${encodeURIComponent(deviceId)}`,
      deviceId,
      worker,
      isSubscribed: false,
    };
    await register(current, await currentSubscription(worker));
    return current;
  }

  async function subscribe(): Promise<boolean> {
    const current = await started();
    if (!notificationsSupported() || (await Notification.requestPermission()) !== 'granted') return false;
    const registration = await current.worker;
    const config = await current.client.call<{ vapidPublicKey: string }>({
      method: 'GET',
      path: `${current.projectPath}/config`,
    });
    await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: config.vapidPublicKey,
    });
    await register(current, subscription);
    return current.isSubscribed;
  }

  const sdk: PushEngineSdk = {
    initialize(options) {
      session ??= start(options);
      // A failed start may be tried again (offline at first, say).
      session.catch(() => (session = undefined));
      return session.then(() => undefined);
    },
    subscribe,
    async getIsSubscribed() {
      const current = await started();
      return (
        current.isSubscribed &&
        notificationsSupported() &&
        Notification.permission === 'granted' &&
        (await currentSubscription(current.worker)) !== null
      );
    },
    async setIsSubscribed(subscribed) {
      if (subscribed) return subscribe();
      const current = await started();
      await (await currentSubscription(current.worker))?.unsubscribe();
      await register(current, null);
      return false;
    },
    async setUserId(userId) {
      const current = await started();
      await current.client.call({ method: 'PATCH', path: current.devicePath, body: { userId } });
    },
    async setTags(tags) {
      const current = await started();
      await current.client.call({ method: 'PATCH', path: current.devicePath, body: { tags } });
    },
    async trackEvent(type, data, options) {
      const current = await started();
      const call = {
        method: 'POST',
        path: `${current.devicePath}/events`,
        body: data === undefined ? { type } : { type, data },
      } as const;
      if (options?.useBeacon) await current.client.sendNow(call);
      else await current.client.call(call);
    },
    async getDeviceId() {
      return (await started()).deviceId;
    },
  };
  return sdk;
}
