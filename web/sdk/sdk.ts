import type { InAppMessageHandler, InitializeOptions, PushEngineSdk } from './types.ts';
import { ApiClient } from './api-client.ts';
import {
  notificationsSupported,
  newDeviceId,
  registrationBody,
  currentSubscription,
  keyOf,
  activated,
} from './push-subscription.ts';
import { vapidPublicKey } from './vapid-key.ts';
import type { DeviceView, Session } from './session.ts';
import { randomId } from '../shared/random-id.ts';
import { clientStateKey, readOrCreate, writeState, type ClientState } from './storage.ts';
import { InAppMessages } from './in-app/in-app-messages.ts';
import { startsSession } from './in-app/session-start.ts';
import { chooseLanguage, localeSent, syncLocale, visitorLocale } from './locale.ts';

const defaultServiceWorkerPath = '/push-engine-sw.js';

/** The options as they take effect (a copy): a trailing slash or the default path given explicitly changes nothing. */
const effectiveOptions = (options: InitializeOptions): string =>
  JSON.stringify([
    options.projectId,
    options.clientKey,
    options.baseUrl.replace(/\/+$/, ''),
    options.serviceWorkerPath ?? defaultServiceWorkerPath,
  ]);

export function createSdk(): PushEngineSdk {
  let session: Promise<Session> | undefined;
  let sessionOptions: string | undefined;
  let inAppHandler: InAppMessageHandler | null = null;

  function started(): Promise<Session> {
    if (session === undefined)
      return Promise.reject(new Error('Call PushEngine.initialize({ projectId, clientKey, baseUrl }) first.'));
    return session;
  }

  async function register(current: Session, subscription: PushSubscription | null): Promise<void> {
    const locale = await visitorLocale(current.projectId);
    const device = await current.client.call<DeviceView>({
      method: 'PUT',
      path: current.devicePath,
      body: { ...registrationBody(subscription), ...locale },
    });
    current.isSubscribed = device.isSubscribed;
    await localeSent(current.projectId, current.deviceId, locale);
  }

  /** A locale the service may not know yet; one it refuses leaves the device as it was and the page unbothered. */
  const keepLocale = (current: Session) => syncLocale(current.client, current).catch(() => undefined);

  async function start(options: InitializeOptions): Promise<Session> {
    const { value: deviceId, created } = await readOrCreate('deviceId', newDeviceId);
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
    const client = new ApiClient(options.baseUrl, options.clientKey);
    const devicePath = `${projectPath}/devices/${encodeURIComponent(deviceId)}`;
    const current: Session = {
      projectId: options.projectId,
      client,
      projectPath,
      devicePath,
      deviceId,
      worker,
      isSubscribed: false,
      inApp: new InAppMessages({ client, baseUrl: options.baseUrl, projectId: options.projectId, devicePath }),
    };
    current.inApp.handler = inAppHandler;
    let subscription = await currentSubscription(worker);
    // Another project's or provider's subscription on this site reaches no one through this project: a push service
    // refuses a push signed with another key. The visitor counts as not subscribed until subscribe() replaces it.
    // When the project's key cannot be read the state is unknown; a key the browser does not report is taken as ours.
    if (subscription) {
      const projectKey = await vapidPublicKey(current, 'kept').catch(() => undefined);
      if (projectKey === undefined) subscription = undefined;
      else if (![null, projectKey].includes(keyOf(subscription))) subscription = null;
    }
    // A device seen before keeps what the service knows of it until the browser can say; a new one is registered.
    if (subscription !== undefined || created) await register(current, subscription ?? null);
    await keepLocale(current);
    addEventListener('languagechange', () => void keepLocale(current));
    current.inApp.refresh();
    if (startsSession(options.projectId)) current.inApp.trigger((trigger) => 'on' in trigger);
    return current;
  }

  async function subscribe(): Promise<boolean> {
    const current = await started();
    if (!notificationsSupported() || (await Notification.requestPermission()) !== 'granted') return false;
    const registration = await current.worker;
    const applicationServerKey = await vapidPublicKey(current, 'fresh');
    await activated(registration);
    const options = { userVisibleOnly: true, applicationServerKey };
    const existing = await registration.pushManager.getSubscription();
    // The browser refuses a second key while one subscription exists (InvalidStateError).
    if (existing && keyOf(existing) !== applicationServerKey) await existing.unsubscribe();
    const subscription = await registration.pushManager.subscribe(options);
    await register(current, subscription);
    if (current.isSubscribed) return true;
    // The service refuses an endpoint its push service said is gone (CONTRACTS §3), while the browser may still
    // hand it out: a fresh subscription has a new endpoint.
    await subscription.unsubscribe();
    await register(current, await registration.pushManager.subscribe(options));
    return current.isSubscribed;
  }

  const sdk: PushEngineSdk = {
    // Async, so that options a plain-JS page got wrong reject the promise it may .catch() rather than throw.
    async initialize(options) {
      if (session === undefined) {
        sessionOptions = effectiveOptions(options);
        session = start(options);
        // A failed start may be tried again (offline at first, say).
        session.catch(() => (session = undefined));
      } else if (effectiveOptions(options) !== sessionOptions) {
        throw new Error('PushEngine is already initialized with other options: reload the page to use these.');
      }
      await session;
    },
    subscribe,
    async getIsSubscribed() {
      const current = await started();
      return (
        current.isSubscribed &&
        notificationsSupported() &&
        Notification.permission === 'granted' &&
        Boolean(await currentSubscription(current.worker))
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
      await current.inApp.refresh();
    },
    async setTags(tags) {
      const current = await started();
      await current.client.call({ method: 'PATCH', path: current.devicePath, body: { tags } });
      await current.inApp.refresh();
    },
    async setLanguage(language) {
      const current = await started();
      await chooseLanguage(current.projectId, language);
      await syncLocale(current.client, current);
    },
    async trackEvent(type, data, options) {
      const current = await started();
      const call = {
        method: 'POST',
        path: `${current.devicePath}/events`,
        body: data === undefined ? { type } : { type, data },
        // The same with every retry: an answer lost after the event was stored does not store it twice.
        headers: { 'idempotency-key': randomId() },
      } as const;
      current.inApp.trigger((trigger) => 'event' in trigger && trigger.event === type);
      if (options?.useBeacon) await current.client.sendNow(call);
      else await current.client.call(call);
    },
    async getDeviceId() {
      return (await started()).deviceId;
    },
    setInAppMessageHandler(handler) {
      inAppHandler = handler;
      session?.then(
        (current) => {
          current.inApp.handler = handler;
        },
        () => undefined,
      );
    },
  };
  return sdk;
}
