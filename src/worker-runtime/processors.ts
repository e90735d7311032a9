import type { Job, Processor } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { QueueName } from '../queues/queue-names.ts';
import type { SendJobData } from '../queues/send.ts';
import type { DeliverJobData } from '../queues/deliver.ts';
import { sendProcessor, markSendFailed } from '../delivery/send-processor.ts';
import { deliverProcessor } from '../delivery/deliver-processor.ts';
import { deliveryWorker } from '../delivery/delivery-worker.ts';
import { giveUpBatch } from '../delivery/give-up-batch.ts';
import { createGatewayProvider } from '../gateways/create-gateway-provider.ts';
import { tagUpdateProcessor } from '../user-tags/tag-update-processor.ts';
import { eventIngestProcessor } from '../events/event-ingest-processor.ts';
import { maintenanceProcessor } from '../maintenance/maintenance-processor.ts';

/** A queue's processor, and whatever it holds beyond the deps, released once its worker has stopped. */
export interface QueueProcessor {
  process: Processor;
  /**
   * For a job BullMQ failed without running it, having found it stalled more often than maxStalledCount allows:
   * what the job's own last attempt would have done on failing, which no attempt was there to do.
   */
  failedUnrun?(job: Job): Promise<void>;
  close?(): Promise<void>;
}

/** Each queue's processor, built when a worker of that queue starts. */
export const queueProcessors: Record<QueueName, (deps: Deps) => QueueProcessor> = {
  send: (deps) => ({
    process: sendProcessor(deps),
    failedUnrun: (job: Job<SendJobData>) => markSendFailed(deps.models, job.data.notificationId),
  }),
  deliver: (deps) => {
    // Only this worker sends pushes, so only it builds gateway clients.
    const gateways = createGatewayProvider(deps.config, deps.models);
    const deliverDeps = { ...deps, gateways };
    const worker = deliveryWorker(deliverDeps);
    return {
      process: deliverProcessor(deliverDeps, worker),
      // A batch failed unrun gives up its devices not done, as its last attempt would have.
      failedUnrun: (job: Job<DeliverJobData>) => giveUpBatch(worker, job),
      close: () => gateways.close(),
    };
  },
  'tag-update': (deps) => ({ process: tagUpdateProcessor(deps) }),
  'event-ingest': (deps) => ({ process: eventIngestProcessor(deps) }),
  maintenance: (deps) => ({ process: maintenanceProcessor(deps) }),
};
