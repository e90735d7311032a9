import { sendQueue } from './send.ts';
import { deliverQueue } from './deliver.ts';
import { tagUpdateQueue } from './tag-update.ts';
import { eventIngestQueue } from './event-ingest.ts';
import { maintenanceQueue } from './maintenance.ts';
import type { QueueDefinition } from './queue-definition.ts';

/** Every queue, under the key its BullMQ Queue has in deps.queues. */
export const queueRegistry = {
  send: sendQueue,
  deliver: deliverQueue,
  tagUpdate: tagUpdateQueue,
  eventIngest: eventIngestQueue,
  maintenance: maintenanceQueue,
};

export type QueueKey = keyof typeof queueRegistry;
export type QueueName = (typeof queueRegistry)[QueueKey]['name'];

/** One value per queue, under the queue's key. */
export function perQueue<T>(value: (definition: QueueDefinition<QueueName>) => T): Record<QueueKey, T> {
  const entries = Object.entries(queueRegistry).map(([key, definition]) => [key, value(definition)]);
  return Object.fromEntries(entries) as Record<QueueKey, T>;
}

export const queueNames = perQueue((definition) => definition.name);

/** How a worker process, started for one queue by name (workers/<queue>.ts), finds what to run. */
export function queueDefinition(name: QueueName): QueueDefinition<QueueName> {
  return Object.values(queueRegistry).find((definition) => definition.name === name)!;
}
