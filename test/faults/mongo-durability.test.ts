import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalSecantusDb } from '../../local/services/secantusdb.ts';
import { connectMongo } from '../../src/infra/mongo.ts';
import { withDatabase } from '../../src/infra/mongo-url.ts';
import { restartable, type RestartableService } from '../support/fault-harness.ts';

const writers = 20;
// Enough that writes are surely in flight, and unjournaled ones lost, when the kill comes (20 of 6,900 without j: true).
const acknowledgedBeforeKill = 5_000;
let stateDir: string;
let server: RestartableService;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'pushengine-durability-'));
  server = await restartable(startLocalSecantusDb, stateDir);
});
afterAll(async () => {
  await server.stop();
  await rm(stateDir, { recursive: true, force: true });
});

/** Inserts history-shaped batches from many writers, kills the server mid-stream, and answers the ids it acknowledged. */
async function writeUntilKilled(url: string): Promise<string[]> {
  const connection = await connectMongo(url);
  const collection = connection.collection('acknowledged');
  await connection.createCollection('acknowledged');
  const acknowledged: string[] = [];
  let killed = false;
  let enoughWritten!: () => void;
  const enough = new Promise<void>((resolve) => (enoughWritten = resolve));
  const writer = async (writerId: number) => {
    for (let batch = 0; !killed; batch++) {
      const documents = Array.from({ length: 10 }, (_, index) => ({
        _id: `${writerId}:${batch}:${index}` as unknown as never,
        sentAt: new Date(),
        body: 'x'.repeat(200),
      }));
      try {
        await collection.insertMany(documents, { ordered: false });
      } catch {
        return;
      }
      acknowledged.push(...documents.map((document) => document._id as unknown as string));
      if (acknowledged.length >= acknowledgedBeforeKill) enoughWritten();
    }
  };
  const writing = Promise.all(Array.from({ length: writers }, (_, index) => writer(index)));
  await enough;
  await server.kill();
  killed = true;
  await writing;
  await connection.close(true).catch(() => undefined);
  return acknowledged;
}

it('every write the server acknowledged is there after a kill -9 and a restart on the same data (CONTRACTS §1: a 200 means durable)', async () => {
  const url = withDatabase(server.url, 'durability');
  const acknowledged = await writeUntilKilled(url);
  expect(acknowledged.length).toBeGreaterThanOrEqual(acknowledgedBeforeKill);
  await server.start();

  const connection = await connectMongo(url);
  try {
    const stored = await connection
      .collection('acknowledged')
      .find({}, { projection: { _id: 1 } })
      .toArray();
    const present = new Set(stored.map((document) => String(document._id)));
    const lost = acknowledged.filter((id) => !present.has(id));
    expect(lost).toEqual([]);
  } finally {
    await connection.close();
  }
}, 90_000);
