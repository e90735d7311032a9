import type { Processor } from 'bullmq';
import type { QueueName } from '../queues/names.ts';
import type { WorkerContext } from './worker-context.ts';
import { maintenanceProcessor } from '../maintenance/maintenance-processor.ts';
import { tagUpdateProcessor } from '../user-tags/tag-update-processor.ts';
import { eventIngestProcessor } from '../events/event-ingest-processor.ts';
import { databaseSegmentResolver } from '../targets/segment-resolver.ts';
import { sendProcessor } from '../delivery/send-processor.ts';
import { deliverProcessor } from '../delivery/deliver-processor.ts';

type ProcessorBuilder = (context: WorkerContext) => Processor;

/** The processor of each queue, for callers that start workers by queue name (tests, benchmarks). */
export const processors: Record<QueueName, ProcessorBuilder> = {
  send: (context) => sendProcessor(context, databaseSegmentResolver(context)),
  deliver: deliverProcessor,
  maintenance: maintenanceProcessor,
  'tag-update': tagUpdateProcessor,
  'event-ingest': eventIngestProcessor,
};

export function processorFor(queueName: QueueName): ProcessorBuilder {
  return processors[queueName];
}
