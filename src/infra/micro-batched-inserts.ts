import type { Collection } from 'mongodb';
import { microBatchedWrites } from './micro-batcher.ts';
import { ignoringDuplicateKeys } from './ignore-duplicate-keys.ts';

/** Callers whose documents go in one insert at most: as many as a deliver worker has batches in flight. */
const maxCallersPerInsert = 16;

/**
 * Unordered inserts of documents keyed by their _id, where the documents given while an insert is out go together in
 * the next one (a MicroBatcher): a write command costs the server a fixed time besides its documents, and each of a
 * deliver worker's batches writes a few documents per gateway call. A document already stored counts as
 * written (ignoringDuplicateKeys), so a rerun may insert again what it inserted; a failed insert fails its callers,
 * each of which retries its own documents.
 */
export class MicroBatchedInserts {
  private readonly inserts: (documents: object[]) => Promise<void>;

  constructor(collection: Collection) {
    this.inserts = microBatchedWrites(async (callers: object[][]) => {
      const documents = callers.flat();
      // The raw collection is typed for ObjectId ids, and these documents' _id is a string: hence never[].
      await ignoringDuplicateKeys(documents.length, () =>
        collection.insertMany(documents as never[], { ordered: false }),
      );
    }, maxCallersPerInsert);
  }

  async insert(documents: object[]): Promise<void> {
    if (documents.length > 0) await this.inserts(documents);
  }
}
