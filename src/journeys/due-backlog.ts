import { claimBatchSize, claimFound, takeBatch } from './claim-due-travellers.ts';
import { type Found, findDue } from './find-due.ts';
import type { StepDeps, Traveller } from './steps/step-context.ts';

type BacklogDeps = Pick<StepDeps, 'models' | 'redis' | 'config' | 'queues'>;

/**
 * How many due travellers one read finds: one read of many serves a backlog's claims. SecantusDB as released reads and
 * decodes every due document for a read of the oldest, whatever its limit, so a read per few claims made the backlog's
 * cost quadratic (100,000 due: seconds a read); MongoDB, and the local server through its launcher's ordered limit
 * (local/services/secantusdb_ordered_limit.py), stop at the limit.
 */
export const backlogReadSize = 25_000;

/**
 * How long a read's remainder serves this process's runs. A backlog is handed out oldest first, so what falls due
 * meanwhile is behind it anyway; it and a lease that lapses meanwhile wait for the next read. A read of 50,000 due
 * costs the server seconds: rereading sooner spent it on rereads.
 */
export const backlogFreshMs = 60_000;

/**
 * A read past waiting timeouts that found less than a claim's batch to run is not made again for this many times as
 * long as it took (at most backlogFreshMs): every project's steps due since the oldest event still to be ingested, of
 * any project, wait that much longer. While ingestion lags, the timeouts waiting for it can be most of what is due;
 * reading past them on every read would spend the server on reads, and the ingestion they wait for would lag further.
 * A read past few costs milliseconds, and so waits milliseconds.
 */
export const readPastBackoff = 4;

/**
 * A process's due travellers, read oldest first and handed out a claim's batch at a time, to this process's concurrent
 * runs alike (takeBatch). A batch is only a hint: its claim takes only what no other claim holds, so one that another
 * worker took first claims nothing.
 */
export class DueBacklog {
  private found: Found[] = [];
  private readAt = 0;
  private reading: Promise<void> | null = null;
  private readonly deps: BacklogDeps;
  private readonly readSize: number;
  private readsStarted = 0;
  /** Until when reads leave waiting timeouts unread past (readPastBackoff). */
  private readPastAfter = 0;
  /**
   * Travellers of this process's runs still in flight (null), or whose run ended before the read of that number
   * started: a claim leaves its travellers due in MongoDB until their step is recorded, so a read before then finds
   * them due, and a claim of them again would take nothing.
   */
  private readonly claiming = new Map<string, number | null>();

  constructor(deps: BacklogDeps, readSize = backlogReadSize) {
    this.deps = deps;
    this.readSize = readSize;
  }

  /** The oldest due batch not yet handed out, from a fresh read once the last one is used up or stale. */
  async nextBatch(): Promise<Found[]> {
    if (this.found.length === 0 || Date.now() - this.readAt > backlogFreshMs) {
      this.reading ??= this.read().finally(() => {
        this.reading = null;
      });
      await this.reading;
    }
    return takeBatch(this.found);
  }

  /**
   * Claims the next batch (claimFound) and runs what it took (`run`); its travellers stay out of this process's reads
   * until the run ends. Answers how many it was handed (none: nothing is due) and what `run` answered.
   */
  async runNextBatch(leaseMs: number, run: (claim: string, travellers: Traveller[]) => Promise<number>) {
    const batch = await this.nextBatch();
    for (const { _id } of batch) this.claiming.set(_id, null);
    try {
      const { claim, travellers } = await claimFound(this.deps, leaseMs, batch);
      return { found: batch.length, ran: travellers.length > 0 ? await run(claim, travellers) : 0 };
    } finally {
      const firstReadAfter = this.readsStarted + 1;
      for (const { _id } of batch) this.claiming.set(_id, firstReadAfter);
    }
  }

  private async read() {
    const readAt = Date.now();
    const read = ++this.readsStarted;
    const { found, readPast } = await findDue(this.deps, new Date(readAt), this.readSize, readAt >= this.readPastAfter);
    if (readPast && readPast.found < claimBatchSize)
      this.readPastAfter = Date.now() + Math.min(backlogFreshMs, readPastBackoff * readPast.ms);
    for (const [id, firstReadAfter] of this.claiming)
      if (firstReadAfter !== null && firstReadAfter <= read) this.claiming.delete(id);
    this.found = found.filter(({ _id }) => !this.claiming.has(_id));
    this.readAt = readAt;
  }
}
