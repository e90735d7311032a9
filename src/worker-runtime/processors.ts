import type { Processor } from 'bullmq';
import type { QueueName } from '../queues/names.ts';
import type { WorkerContext } from './worker-context.ts';
import { maintenanceProcessor } from '../maintenance/maintenance-processor.ts';
import { tagUpdateProcessor } from '../user-tags/tag-update-processor.ts';
import { eventIngestProcessor } from '../events/event-ingest-processor.ts';

type ProcessorBuilder = (context: WorkerContext) => Processor;

/** The processor of each queue that has one, for callers that start workers by queue name (tests, benchmarks). */
export const processors: Partial<Record<QueueName, ProcessorBuilder>> = {
  maintenance: maintenanceProcessor,
  'tag-update': tagUpdateProcessor,
  'event-ingest': eventIngestProcessor,
};

export function processorFor(queueName: QueueName): ProcessorBuilder {
  const build = processors[queueName];
  if (!build) throw new Error(`no processor is registered for the queue "${queueName}"`);
  return build;
}
