import type { Models } from './index.ts';

/**
 * Creates every collection and builds every declared index at start-up; both are no-ops when already there.
 * Collections are created here, one after another, before anything writes to them: besides saving MongoDB an
 * implicit create on the first write, SecantusDB 0.7 livelocks when an insert into a missing collection races a
 * `create` of the same collection, which mongoose's autoCreate would otherwise issue.
 */
export async function ensureIndexes(models: Models): Promise<void> {
  for (const model of Object.values(models)) {
    await model.createCollection().catch((error: unknown) => {
      if ((error as { codeName?: string }).codeName !== 'NamespaceExists') throw error;
    });
    await model.createIndexes();
  }
}
