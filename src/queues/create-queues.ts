import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { queueNames } from './names.ts';

export function createQueues(connection: Redis, prefix: string) {
  const options = { connection, prefix };
  return {
    send: new Queue(queueNames.send, options),
    deliver: new Queue(queueNames.deliver, options),
    tagUpdate: new Queue(queueNames.tagUpdate, options),
    eventIngest: new Queue(queueNames.eventIngest, options),
    maintenance: new Queue(queueNames.maintenance, options),
  };
}

export type Queues = ReturnType<typeof createQueues>;

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}
