import { MongoClient, type Db } from 'mongodb';
import { testConfig } from './test-config.ts';
import { useResource } from './use-resource.ts';

/** A database of the file's own on the run's MongoDB-wire server, for tests of the server itself; dropped after the file. */
export function useScratchDatabase(): { db: Db } {
  return useResource(async () => {
    const client = await MongoClient.connect(testConfig().mongoUrl);
    const db = client.db();
    return {
      db,
      close: async () => {
        await db.dropDatabase();
        await client.close();
      },
    };
  });
}
