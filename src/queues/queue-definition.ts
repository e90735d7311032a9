import type { MinimalJob } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { QueueName } from '../infra/queue-names.ts';
import type { Config } from '../config.ts';

/**
 * A queue's contract with the worker processes: how they run its jobs and what they schedule on it. The processor is
 * not part of it: the worker runtime maps each queue to its processor (queueProcessors), so whatever enqueues a job
 * loads none of the workers' code.
 */
export interface QueueDefinition<Name extends QueueName = QueueName> {
  name: Name;
  /** Jobs one process runs at once, unless <QUEUE>_CONCURRENCY says otherwise. */
  defaultConcurrency: number;
  /**
   * How many times a job may be found stalled (its worker died, or outlasted its shutdown grace, under it) and run
   * again; once more, BullMQ fails it without running it. Its default is 1.
   */
  maxStalledCount?: number;
  /** The delay before a retry of a job whose backoff names a custom type, by the attempts it has made. */
  backoffStrategy?(attemptsMade: number, config: Config, job: MinimalJob | undefined): number;
  /** The queue's repeatable jobs; every worker process sets them at start-up, which is idempotent. */
  schedule?(deps: Pick<Deps, 'queues'>): Promise<void>;
}

/**
 * For queues whose runs resume where the last one stopped (a send's fan-out, a delivery batch), being stalled costs a
 * job only time: it is run again after a second dead worker (a deploy and its rollback, an OOM loop), where BullMQ's
 * default would fail a batch with its pushes unsent and let its notification complete. The bound still stops a job
 * that kills every worker taking it.
 */
export const resumableStalls = 10;
