import type { ApiClient } from './api-client.ts';
import type { InAppMessages } from './in-app/in-app-messages.ts';

export interface DeviceView {
  isSubscribed: boolean;
}

/** One initialize()'s connection: the project, the device and what the service last said of it. */
export interface Session {
  projectId: string;
  client: ApiClient;
  projectPath: string;
  devicePath: string;
  deviceId: string;
  /** The service worker's registration, or why there is none (subscribe() reports it). */
  worker: Promise<ServiceWorkerRegistration>;
  /** The device as the service last answered it. */
  isSubscribed: boolean;
  inApp: InAppMessages;
}
