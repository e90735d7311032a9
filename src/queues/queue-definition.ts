import type { Job, Processor } from 'bullmq';
import type { Deps } from '../deps.ts';

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

/** What a worker process needs to know of its queue: each queue's module exports one, listed in ./registry.ts. */
export interface QueueDefinition<Name extends string = string> {
  name: Name;
  /** Jobs one process runs at once, unless <QUEUE>_CONCURRENCY says otherwise. */
  defaultConcurrency: number;
  /**
   * How many times a job may be found stalled (its worker died, or outlasted its shutdown grace, under it) and run
   * again; once more, BullMQ fails it without running it. Its default is 1.
   */
  maxStalledCount?: number;
  /**
   * Imports the processor when a worker of this queue starts rather than with the module: the ingress imports the
   * queue modules for their enqueue helpers and must not load the workers' code (the gateway SDKs among it).
   */
  processor(deps: Deps): Promise<QueueProcessor>;
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
