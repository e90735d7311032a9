import type { IndexDescription } from 'mongodb';
import type { Schema } from 'mongoose';
import type { Models } from './index.ts';

/**
 * Indexes an earlier version declared that one declared now serves in their place: dropped at start-up, since every
 * index costs each write. {projectId, userId} became {projectId, userId, platform}; a journey's active flag became its
 * status; the notification list leaves out journey steps' batches; the travellers' due times end in _id, so a claim
 * takes a range up to the last one read.
 */
const replacedIndexes: Partial<Record<keyof Models, string[]>> = {
  Device: ['projectId_1_userId_1'],
  Journey: ['projectId_1_active_1'],
  Notification: ['projectId_1_createdAt_-1__id_-1'],
  JourneyTraveller: ['state_1_dueAt_1'],
};

/** MongoDB's IndexNotFound: the index is already gone (dropped by another process starting, or never built). */
const indexNotFound = 27;

/**
 * Creates every collection and builds every declared index at start-up; both are no-ops when already there. A
 * collection's indexes go in one `createIndexes` command, which also creates the collection: one round trip a collection
 * rather than one per index and another for the collection (mongoose's `createIndexes`), which every process and every
 * test file pays at its start. Collections are created here, one after another, before anything writes to them:
 * besides saving MongoDB an implicit create on the first write, the local server livelocks when an insert into a missing
 * collection races a `create` of the same collection, which mongoose's autoCreate would otherwise issue
 * (docs/architecture.md#local-server-quirks).
 */
export async function ensureIndexes(models: Models): Promise<void> {
  for (const [name, model] of Object.entries(models) as Array<[keyof Models, Models[keyof Models]]>) {
    const indexes = declaredIndexes(model.schema);
    if (indexes.length > 0) await model.collection.createIndexes(indexes);
    else
      await model.createCollection().catch((error: unknown) => {
        if ((error as { codeName?: string }).codeName !== 'NamespaceExists') throw error;
      });
    for (const replaced of replacedIndexes[name] ?? [])
      await model.collection.dropIndex(replaced).catch((error: unknown) => {
        if ((error as { code?: number }).code !== indexNotFound) throw error;
      });
  }
}

/** The schema's indexes (its `index()` calls and fields marked `index`) as the server's `createIndexes` takes them. */
function declaredIndexes(schema: Schema): IndexDescription[] {
  // Mongoose types a key's direction more loosely than the driver; the schemas declare only 1, -1 and wildcards.
  return schema.indexes().map(([key, options]) => ({ key, ...options }) as IndexDescription);
}
