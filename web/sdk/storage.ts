/**
 * A small key-value store in IndexedDB, shared by the page and the service worker (same origin): the device id
 * survives reloads, and the service worker finds the project and device it reports clicks for.
 */
const databaseName = 'push-engine';
const storeName = 'state';

export interface ClientState {
  projectId: string;
  clientKey: string;
  baseUrl: string;
  deviceId: string;
}

function request<T>(operation: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    operation.onsuccess = () => resolve(operation.result);
    operation.onerror = () => reject(operation.error);
  });
}

let database: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  database ??= new Promise((resolve, reject) => {
    const opening = indexedDB.open(databaseName, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(storeName);
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  return database;
}

export async function readState<T>(key: string): Promise<T | undefined> {
  const db = await open();
  return request(db.transaction(storeName).objectStore(storeName).get(key)) as Promise<T | undefined>;
}

export async function writeState(key: string, value: unknown): Promise<void> {
  const db = await open();
  await request(db.transaction(storeName, 'readwrite').objectStore(storeName).put(value, key));
}

/** Two tabs opening at once must agree on one id: the first writer wins, inside one transaction. */
export async function readOrCreate<T>(key: string, create: () => T): Promise<{ value: T; created: boolean }> {
  const db = await open();
  const store = db.transaction(storeName, 'readwrite').objectStore(storeName);
  const existing = (await request(store.get(key))) as T | undefined;
  if (existing !== undefined) return { value: existing, created: false };
  const value = create();
  await request(store.put(value, key));
  return { value, created: true };
}

export const clientStateKey = 'client';
