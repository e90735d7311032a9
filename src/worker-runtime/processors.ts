import type { Job, Processor } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { QueueName } from '../infra/queue-names.ts';
import type { SendJobData } from '../queues/send.ts';
import type { DeliverJobData } from '../queues/deliver.ts';
import { isRefusalWritesJob } from '../queues/refusal-writes.ts';
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

/**
 * Each queue's processor, loaded when a worker of that queue starts and built on its deps: a process loads the code of
 * its own queues only (a webhook worker has no push gateway SDK in memory, a deliver worker no fan-out).
 */
export const queueProcessors: Record<QueueName, () => Promise<(deps: Deps) => QueueProcessor>> = {
  send: async () => {
    const { sendProcessor, markSendFailed } = await import('../fan-out/send-processor.ts');
    return (deps) => ({
      process: sendProcessor(deps),
      failedUnrun: (job: Job<SendJobData>) => markSendFailed(deps.models, job.data.notificationId),
    });
  },
  deliver: async () => {
    const [{ deliverProcessor }, { deliveryWorker }, { giveUpBatch }, { createGatewayProvider }] = await Promise.all([
      import('../delivery/deliver-processor.ts'),
      import('../delivery/delivery-worker.ts'),
      import('../delivery/give-up-batch.ts'),
      import('../gateways/create-gateway-provider.ts'),
    ]);
    return (deps) => {
      // Only this worker sends pushes, so only it builds gateway clients.
      const gateways = createGatewayProvider(deps.config, deps.models);
      const deliverDeps = { ...deps, gateways };
      const worker = deliveryWorker(deliverDeps);
      return {
        process: deliverProcessor(deliverDeps, worker),
        // A batch failed unrun gives up its devices not done, as its last attempt would have; refusals' writes have
        // nothing to give up.
        failedUnrun: async (job: Job<DeliverJobData>) => {
          if (!isRefusalWritesJob(job)) await giveUpBatch(worker, job);
        },
        close: () => gateways.close(),
      };
    };
  },
  'tag-update': async () => {
    const { tagUpdateProcessor } = await import('../user-tags/tag-update-processor.ts');
    return (deps) => ({ process: tagUpdateProcessor(deps) });
  },
  'event-ingest': async () => {
    const { eventIngestProcessor } = await import('../event-ingest/event-ingest-processor.ts');
    return (deps) => ({ process: eventIngestProcessor(deps) });
  },
  maintenance: async () => {
    const { maintenanceProcessor } = await import('../maintenance/maintenance-processor.ts');
    return (deps) => ({ process: maintenanceProcessor(deps) });
  },
  'journey-steps': async () => {
    const { journeyStepsProcessor } = await import('../journeys/journey-steps-processor.ts');
    return (deps) => ({ process: journeyStepsProcessor(deps) });
  },
  'device-import': async () => {
    const { deviceImportProcessor } = await import('../device-files/import-processor.ts');
    return (deps) => ({ process: deviceImportProcessor(deps) });
  },
  webhook: async () => {
    const { webhookProcessor } = await import('../webhooks/webhook-processor.ts');
    return webhookProcessor;
  },
};
