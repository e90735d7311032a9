import { sendQueue } from './send.ts';
import { deliverQueue } from './deliver.ts';
import { tagUpdateQueue } from './tag-update.ts';
import { eventIngestQueue } from './event-ingest.ts';
import { maintenanceQueue } from './maintenance.ts';
import { webhookQueue } from './webhook.ts';
import { journeyStepsQueue } from './journey-steps.ts';
import { deviceImportQueue } from './device-import.ts';
import type { QueueDefinition } from './queue-definition.ts';
import type { QueueKey, QueueName, queueNames } from '../infra/queue-names.ts';

/** Every queue's definition, under the key its BullMQ Queue has in Deps' queues. */
export const queueRegistry: { [Key in QueueKey]: QueueDefinition<(typeof queueNames)[Key]> } = {
  send: sendQueue,
  deliver: deliverQueue,
  tagUpdate: tagUpdateQueue,
  eventIngest: eventIngestQueue,
  maintenance: maintenanceQueue,
  webhook: webhookQueue,
  journeySteps: journeyStepsQueue,
  deviceImport: deviceImportQueue,
};

/** How a worker process, started for one queue by name (runWorkerProcess), finds its queue's definition. */
export function queueDefinition(name: QueueName): QueueDefinition<QueueName> {
  return Object.values(queueRegistry).find((definition) => definition.name === name)!;
}
