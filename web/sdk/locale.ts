import type { ApiClient } from './api-client.ts';
import { readState, writeState } from './storage.ts';

/** A device's language and time zone as the service keeps them (CONTRACTS §3). */
export interface DeviceLocale {
  language: string | null;
  timezone: string | null;
}

const overrideKey = (projectId: string) => `language:${projectId}`;
const sentKey = (projectId: string, deviceId: string) => `locale:${projectId}:${deviceId}`;

/** The visitor's locale: the language a page set with setLanguage, else the browser's first, and the browser's zone. */
export async function visitorLocale(projectId: string): Promise<DeviceLocale> {
  const chosen = await readState<string>(overrideKey(projectId));
  return {
    language: chosen ?? (navigator.language || null),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || null,
  };
}

export const chooseLanguage = (projectId: string, language: string): Promise<void> =>
  writeState(overrideKey(projectId), language);

/** Notes the locale the service now has for the device, so that the next page load sends it only once it changes. */
export const localeSent = (projectId: string, deviceId: string, locale: DeviceLocale): Promise<void> =>
  writeState(sentKey(projectId, deviceId), locale);

/**
 * Tells the service the visitor's locale when it differs from what it was last told: a page load costs no call
 * unless the visitor travelled or changed the browser's language.
 */
export async function syncLocale(
  client: ApiClient,
  place: { projectId: string; deviceId: string; devicePath: string },
): Promise<void> {
  const locale = await visitorLocale(place.projectId);
  const sent = await readState<DeviceLocale>(sentKey(place.projectId, place.deviceId));
  if (sent?.language === locale.language && sent?.timezone === locale.timezone) return;
  await client.call({ method: 'PATCH', path: place.devicePath, body: locale });
  await localeSent(place.projectId, place.deviceId, locale);
}
