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
 * Creates every collection and builds every declared index at start-up; both are no-ops when already there.
 * Collections are created here, one after another, before anything writes to them: besides saving MongoDB an
 * implicit create on the first write, the local server livelocks when an insert into a missing collection races a
 * `create` of the same collection, which mongoose's autoCreate would otherwise issue
 * (docs/architecture.md#local-server-quirks).
 */
export async function ensureIndexes(models: Models): Promise<void> {
  for (const [name, model] of Object.entries(models) as Array<[keyof Models, Models[keyof Models]]>) {
    await model.createCollection().catch((error: unknown) => {
      if ((error as { codeName?: string }).codeName !== 'NamespaceExists') throw error;
    });
    await model.createIndexes();
    for (const replaced of replacedIndexes[name] ?? [])
      await model.collection.dropIndex(replaced).catch((error: unknown) => {
        if ((error as { code?: number }).code !== indexNotFound) throw error;
      });
  }
}
