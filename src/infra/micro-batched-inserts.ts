import type { Collection } from 'mongodb';
import mongoose from 'mongoose';
import { MicroBatcher } from './micro-batcher.ts';
import { failedWrites, isDuplicateKeyError, type WriteFailure } from './ignore-duplicate-keys.ts';

/** Callers whose documents go in one insert at most, unless told: as many as a deliver worker has batches in flight. */
const defaultCallersPerInsert = 16;

/**
 * Unordered inserts of documents keyed by their _id, where the documents given while an insert is out go together in
 * the next one (a MicroBatcher): a write command costs the server a fixed time besides its documents, and each of a
 * deliver worker's batches writes a few documents per gateway call, as each registration of a new device writes one.
 * A document whose _id is already stored counts as written, so a rerun may insert again what it inserted, and its
 * caller learns which of its documents were stored before. A document the server refuses for another reason fails its
 * own caller only; a failed insert fails its callers, each of which retries its own documents.
 */
export class MicroBatchedInserts {
  private readonly inserts: MicroBatcher<object[], Array<WriteFailure | undefined>>;

  constructor(collection: Collection, maxCallersPerInsert = defaultCallersPerInsert) {
    this.inserts = new MicroBatcher(async (callers: object[][]) => {
      const documents = callers.flat();
      // The raw collection is typed for ObjectId ids, and these documents' _id is a string: hence never[].
      const failures = await failedWrites(documents.length, () =>
        collection.insertMany(documents as never[], { ordered: false }),
      );
      let position = 0;
      return callers.map((caller) => caller.map(() => failures.get(position++)));
    }, maxCallersPerInsert);
  }

  /** Whether each document was inserted now (false: one of its _id was stored before). */
  async insert(documents: object[]): Promise<boolean[]> {
    if (documents.length === 0) return [];
    const failures = await this.inserts.add(documents);
    const refusal = failures.find((failure) => failure !== undefined && !isDuplicateKeyError(failure));
    // As the server's error for an insert of this document alone, which the error handler knows by its name.
    if (refusal)
      throw new mongoose.mongo.MongoServerError({ message: refusal.errmsg ?? 'insert refused', code: refusal.code });
    return failures.map((failure) => failure === undefined);
  }
}
