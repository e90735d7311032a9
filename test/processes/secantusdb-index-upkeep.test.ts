import { Double, MongoServerError, type Collection, type Document } from 'mongodb';
import { beforeAll, expect, it } from 'vitest';
import { useScratchDatabase } from '../support/scratch-database.ts';

interface Row {
  _id: string;
  projectId: string;
  token: string;
  isSubscribed: boolean;
  unsubscribedAt: Date | null;
  createdAt: Date;
  tags?: Record<string, string>;
  list?: number | number[];
  flagged?: boolean;
  label?: string;
  score?: number | Double;
  note?: string;
}

const indexes = {
  subscribed: { projectId: 1, isSubscribed: 1, unsubscribedAt: -1 },
  tags: { 'tags.$**': 1 },
  token: { token: 1 },
  newest: { projectId: 1, createdAt: -1, _id: -1 },
  list: { list: 1 },
  flaggedLabel: { label: 1 },
  score: { score: 1 },
} as const;

/**
 * Filters that the server answers from one of the indexes, each with the index it must use when the server would not
 * choose it (SecantusDB's planner never picks a wildcard index; a hint walks its entries).
 */
const probes: Array<Document | [Document, Document]> = [
  { projectId: 'p', isSubscribed: true },
  { projectId: 'p', isSubscribed: false },
  { projectId: 'p', isSubscribed: false, unsubscribedAt: { $gte: new Date(0) } },
  [{ 'tags.color': 'red' }, indexes.tags],
  [{ 'tags.color': 'blue' }, indexes.tags],
  [{ 'tags.size': 'l' }, indexes.tags],
  { token: 'token-12' },
  { token: 'token-twelve' },
  { projectId: 'p', createdAt: { $gte: new Date(Date.UTC(2026, 10, 1, 0, 30, 30)) } },
  { label: 'kept', flagged: true },
  { score: 5 },
  { score: { $gte: 7 } },
];

const scratch = useScratchDatabase();
let rows: Collection<Row>;

const ids = (found: Array<{ _id: string }>) => found.map((row) => row._id).sort();

/** Every probe is answered from its index (an index scan, not a collection scan) with exactly what a scan finds. */
async function expectIndexesAgree(after: string) {
  for (const probe of probes) {
    const [filter, hint] = Array.isArray(probe) ? probe : [probe, undefined];
    const described = `${after}: ${JSON.stringify(filter)}`;
    const plan = JSON.stringify((await rows.find(filter, { hint }).explain()).queryPlanner.winningPlan);
    expect(plan, described).toContain('IXSCAN');
    const scanned = await rows.find(filter, { projection: { _id: 1 }, hint: { $natural: 1 } }).toArray();
    expect(ids(await rows.find(filter, { projection: { _id: 1 }, hint }).toArray()), described).toEqual(ids(scanned));
  }
}

beforeAll(async () => {
  rows = scratch.db.collection<Row>('rows');
  await rows.createIndexes([
    { key: indexes.subscribed },
    { key: indexes.tags },
    { key: indexes.token, unique: true },
    { key: indexes.newest },
    { key: indexes.list },
    { key: indexes.flaggedLabel, partialFilterExpression: { flagged: true } },
    { key: indexes.score },
  ]);
  await rows.insertMany(
    Array.from({ length: 60 }, (_, n) => ({
      _id: `row-${n}`,
      projectId: 'p',
      token: `token-${n}`,
      isSubscribed: true,
      unsubscribedAt: null,
      createdAt: new Date(Date.UTC(2026, 10, 1, 0, n)),
      tags: { color: n % 2 ? 'red' : 'blue', size: n % 3 ? 'm' : 'l' },
      list: n % 4,
      flagged: n % 5 === 0,
      label: 'kept',
      score: n % 10,
    })),
  );
  await expectIndexesAgree('the insert');
});

/*
 * The local server's launcher rewrites on update only the entries of the indexes whose fields changed
 * (local/services/secantusdb_index_upkeep.py): whatever an update changes or leaves, every index still finds exactly
 * the documents a scan finds.
 */
it('keeps every index exact through updates that change some indexed fields, none, or the shape of a document', async () => {
  await rows.updateMany(
    { _id: { $in: ['row-1', 'row-2', 'row-3', 'row-4'] } },
    {
      $set: { isSubscribed: false, unsubscribedAt: new Date() },
    },
  );
  await expectIndexesAgree('unsubscribing, tags unchanged');

  await rows.updateOne({ _id: 'row-5' }, { $set: { 'tags.color': 'blue' }, $unset: { 'tags.size': '' } });
  await rows.updateOne({ _id: 'row-6' }, { $set: { note: 'no indexed field changes' } });
  await expectIndexesAgree('a tag changed, another removed; an unindexed field set');

  await rows.updateOne({ _id: 'row-7' }, { $set: { list: [1, 2, 3] } });
  await rows.updateOne({ _id: 'row-8' }, { $set: { flagged: true } });
  await rows.updateOne({ _id: 'row-10' }, { $set: { flagged: false } });
  await rows.updateOne({ _id: 'row-9' }, { $set: { score: new Double(5) } });
  await expectIndexesAgree('an array in an indexed field; into and out of a partial index; a number retyped');

  await rows.replaceOne(
    { _id: 'row-11' },
    {
      projectId: 'p',
      token: 'token-11',
      isSubscribed: false,
      unsubscribedAt: null,
      createdAt: new Date(0),
    },
  );
  await rows.updateOne(
    { _id: 'row-new' },
    {
      $set: {
        projectId: 'p',
        token: 'token-new',
        isSubscribed: true,
        unsubscribedAt: null,
        createdAt: new Date(),
        list: 2,
      },
    },
    { upsert: true },
  );
  await expectIndexesAgree('a replacement without tags; an upsert');

  await rows.updateOne({ _id: 'row-11' }, { $set: { tags: { color: 'red' } } });
  await expectIndexesAgree('tags given to a row that had none');
});

it('still refuses an update that would duplicate a unique key, and keeps both documents as they were', async () => {
  const refused = await rows
    .updateOne({ _id: 'row-12' }, { $set: { token: 'token-13', 'tags.color': 'green' } })
    .catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(MongoServerError);
  expect((refused as MongoServerError).code).toBe(11000);
  expect(await rows.findOne({ _id: 'row-12' }, { projection: { token: 1, tags: 1 } })).toMatchObject({
    token: 'token-12',
    tags: { color: 'blue' },
  });
  await expectIndexesAgree('a refused update');

  await rows.updateOne({ _id: 'row-12' }, { $set: { token: 'token-twelve' } });
  await rows.insertOne({
    _id: 'row-reuse',
    projectId: 'p',
    token: 'token-12',
    isSubscribed: true,
    unsubscribedAt: null,
    createdAt: new Date(),
  });
  await rows.deleteMany({ _id: { $in: ['row-1', 'row-5', 'row-7'] } });
  await expectIndexesAgree('a unique key given up and taken again; deletes');
});
