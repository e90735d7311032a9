import type { Processor } from 'bullmq';
import type { Deps } from '../deps.ts';

/** A queue's processor, and whatever it holds beyond the deps, released once its worker has stopped. */
export interface QueueProcessor {
  process: Processor;
  close?(): Promise<void>;
}

/** What a worker process needs to know of its queue: each queue's module exports one, listed in ./registry.ts. */
export interface QueueDefinition<Name extends string = string> {
  name: Name;
  /** Jobs one process runs at once, unless <QUEUE>_CONCURRENCY says otherwise. */
  defaultConcurrency: number;
  /**
   * Imports the processor when a worker of this queue starts rather than with the module: the ingress imports the
   * queue modules for their enqueue helpers and must not load the workers' code (the gateway SDKs among it).
   */
  processor(deps: Deps): Promise<QueueProcessor>;
  /** The queue's repeatable jobs; every worker process sets them at start-up, which is idempotent. */
  schedule?(deps: Pick<Deps, 'queues'>): Promise<void>;
}
