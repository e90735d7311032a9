interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Items handled together: an item given while a run is out waits for it to return, and the items gathered meanwhile
 * then go as the next run, at most maxPerRun of them, in the order given. Alone, an item goes at the end of the current
 * turn of the event loop. Under load one round trip to the server then serves many callers, which is what a server
 * that spends a fixed cost on each command needs. A failed run fails its items only.
 */
export class MicroBatcher<Item, Result> {
  private readonly run: (items: Item[]) => Promise<Result[]>;
  private readonly maxPerRun: number;
  private waiting: Array<Waiting<Item, Result>> = [];
  private running = false;

  /** `run` answers one result per item, in the order of the items. */
  constructor(run: (items: Item[]) => Promise<Result[]>, maxPerRun: number) {
    this.run = run;
    this.maxPerRun = maxPerRun;
  }

  add(item: Item): Promise<Result> {
    if (!this.running) {
      this.running = true;
      setImmediate(() => void this.runWhileWaiting());
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
    });
  }

  private async runWhileWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxPerRun);
      try {
        const results = await this.run(batch.map(({ item }) => item));
        for (const [index, { resolve }] of batch.entries()) resolve(results[index] as Result);
      } catch (error) {
        for (const { reject } of batch) reject(error);
      }
    }
    this.running = false;
  }
}

/** A MicroBatcher of writes: an item's promise settles as the write of its run does. */
export function microBatchedWrites<Item>(
  write: (items: Item[]) => Promise<unknown>,
  maxPerRun: number,
): (item: Item) => Promise<void> {
  const batcher = new MicroBatcher<Item, undefined>(async (items) => {
    await write(items);
    return items.map(() => undefined);
  }, maxPerRun);
  return (item) => batcher.add(item);
}
