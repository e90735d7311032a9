import type { Queue } from 'bullmq';

/** Every queue's name, under the key its BullMQ Queue has in Deps' queues. */
export const queueNames = {
  send: 'send',
  deliver: 'deliver',
  tagUpdate: 'tag-update',
  eventIngest: 'event-ingest',
  maintenance: 'maintenance',
  webhook: 'webhook',
  journeySteps: 'journey-steps',
  deviceImport: 'device-import',
} as const;

export type QueueKey = keyof typeof queueNames;
export type QueueName = (typeof queueNames)[QueueKey];

export type Queues = Record<QueueKey, Queue>;
