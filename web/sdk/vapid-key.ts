import type { ApiClient } from './api-client.ts';
import { readState, writeState } from './storage.ts';

/** How long a page load trusts the project's VAPID key as last read: a day, one read a day per browser. */
const keptKeyMs = 86_400_000;

/**
 * The project's VAPID public key: read from the service for a subscription, and kept in IndexedDB for page loads
 * for a day, so that a key made again (a project restored from a backup) is not trusted for long.
 */
export async function vapidPublicKey(
  current: { projectId: string; projectPath: string; client: ApiClient },
  kept: 'kept' | 'fresh',
): Promise<string> {
  const stateKey = `vapidPublicKey:${current.projectId}`;
  const stored = await readState<{ key: string; readAt: number }>(stateKey);
  if (kept === 'kept' && stored !== undefined && Date.now() - stored.readAt < keptKeyMs) return stored.key;
  const { vapidPublicKey: key } = await current.client.call<{ vapidPublicKey: string }>({
    method: 'GET',
    path: `${current.projectPath}/config`,
  });
  await writeState(stateKey, { key, readAt: Date.now() });
  return key;
}
