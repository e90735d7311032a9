import type { Models } from './index.ts';

/**
 * Indexes that earlier versions built and nothing queries any more. Each would still cost every write to its
 * collection, so start-up drops it.
 */
const retiredIndexes: Partial<Record<keyof Models, string[]>> = {
  // A device's _id holds its project and device id, unique already (src/models/device.ts).
  Device: ['projectId_1_deviceId_1'],
};

/**
 * Creates every collection and builds every declared index at start-up; both are no-ops when already there.
 * Collections are created here, one after another, before anything writes to them: besides saving MongoDB an
 * implicit create on the first write, SecantusDB 0.7 livelocks when an insert into a missing collection races a
 * `create` of the same collection, which mongoose's autoCreate would otherwise issue.
 */
export async function ensureIndexes(models: Models): Promise<void> {
  for (const [name, model] of Object.entries(models) as Array<[keyof Models, Models[keyof Models]]>) {
    await model.createCollection().catch((error: unknown) => {
      if ((error as { codeName?: string }).codeName !== 'NamespaceExists') throw error;
    });
    await model.createIndexes();
    for (const index of retiredIndexes[name] ?? []) {
      // Another process starting at the same moment may have dropped it first.
      await model.collection.dropIndex(index).catch((error: unknown) => {
        if ((error as { codeName?: string }).codeName !== 'IndexNotFound') throw error;
      });
    }
  }
}
