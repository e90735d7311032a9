import type { Collection, Document } from 'mongodb';
import { beforeAll, expect, it } from 'vitest';
import { runSecantusDbCheck } from '../support/secantusdb-checks.ts';
import { useScratchDatabase } from '../support/scratch-database.ts';

type Value = string | number | null | Value[] | { [key: string]: Value };
interface Row {
  _id: string;
  field?: Value;
}

/** What each row's `field` holds: every kind a `$in` of strings meets, and some it must not match. */
const fields: Array<Value | undefined> = [
  'red',
  'Red',
  'blue',
  '1',
  1,
  null,
  undefined,
  [],
  ['red', 'green'],
  ['green', 'yellow'],
  ['green', 1],
  ['blue', 2],
  [['red']],
  [['red'], 'blue'],
  { red: 'red' },
  [{ red: 'red' }],
  'é漢',
  '',
];
const rowsOf = fields.map((field, n) => (field === undefined ? { _id: `row-${n}` } : { _id: `row-${n}`, field }));

/** MongoDB's `$in`: a value equals a candidate (strings by exact text, no other type equal to a string), or is an array with an element that does. */
function matchesIn(value: Value | undefined, candidates: Array<string | number | null>): boolean {
  const equal = (candidate: string | number | null) => (candidate === null ? value == null : value === candidate);
  if (candidates.some(equal)) return true;
  return Array.isArray(value) && value.some((element) => candidates.includes(element as string | number | null));
}

const scratch = useScratchDatabase();
let rows: Collection<Row>;

beforeAll(async () => {
  rows = scratch.db.collection<Row>('rows');
  await rows.createIndex({ field: 1 });
  await rows.insertMany(rowsOf);
});

const idsOf = (found: Document[]) => found.map((row) => row._id as string).sort();
const expectedIds = (candidates: Array<string | number | null>) =>
  rowsOf
    .filter((row) => matchesIn(row.field, candidates))
    .map((row) => row._id)
    .sort();

/*
 * The local server matches a `$in` whose candidates are all strings by a set lookup (local/services/
 * secantusdb_in_matching.py): each filter here must find what MongoDB finds, through the index and by a collection
 * scan, for finds and for updates.
 */
it('finds by $in of strings exactly what MongoDB finds, whatever the values it meets', async () => {
  const filters: Array<Array<string | number | null>> = [
    ['red'],
    ['red', 'blue'],
    ['yellow', 'absent'],
    ['1'],
    ['é漢', ''],
    ['RED'],
    Array.from({ length: 500 }, (_, n) => (n === 250 ? 'green' : `other-${n}`)),
    ['red', 1],
    ['blue', null],
  ];
  for (const candidates of filters) {
    const filter = { field: { $in: candidates } };
    const described = JSON.stringify(candidates).slice(0, 80);
    expect(idsOf(await rows.find(filter).toArray()), described).toEqual(expectedIds(candidates));
    expect(idsOf(await rows.find(filter, { hint: { $natural: 1 } }).toArray()), described).toEqual(
      expectedIds(candidates),
    );
    expect(idsOf(await rows.find({ field: { $nin: candidates } }).toArray()), described).toEqual(
      rowsOf
        .map((row) => row._id)
        .filter((id) => !expectedIds(candidates).includes(id))
        .sort(),
    );
  }
  const someIds = ['row-0', 'row-8', 'row-12', 'absent'];
  expect(idsOf(await rows.find({ _id: { $in: someIds } }).toArray())).toEqual(['row-0', 'row-12', 'row-8']);
  // A collation still decides equality: 'RED' at strength 2 is 'red' and 'Red'.
  const caseless = await rows.find({ field: { $in: ['RED'] } }, { collation: { locale: 'en', strength: 2 } }).toArray();
  expect(idsOf(caseless)).toEqual(['row-0', 'row-1', 'row-8']);
});

/**
 * A candidate no row holds that is not a string: the same `$in` with it added is matched by SecantusDB's own matcher,
 * and must find the same rows.
 */
const unheldNumber = 987_654_321;
const shapes: Array<[string, (candidates: Array<string | number>) => Document]> = [
  ['a field', (candidates) => ({ field: { $in: candidates } })],
  ['a position', (candidates) => ({ 'field.0': { $in: candidates } })],
  ['an element', (candidates) => ({ field: { $elemMatch: { $in: candidates } } })],
  ['a negation', (candidates) => ({ field: { $not: { $in: candidates } } })],
  ['an id', (candidates) => ({ _id: { $in: candidates } })],
];

it("finds by $in of strings what SecantusDB's own matcher finds, in every place a $in goes", async () => {
  const candidateLists = [['red'], ['red', 'red', 'blue'], ['yellow', ''], ['row-3', 'row-12', 'green']];
  for (const [shape, filterOf] of shapes)
    for (const candidates of candidateLists) {
      const described = `${shape}: ${JSON.stringify(candidates)}`;
      const byOwnMatcher = idsOf(
        await rows.find(filterOf([...candidates, unheldNumber]), { hint: { $natural: 1 } }).toArray(),
      );
      expect(idsOf(await rows.find(filterOf(candidates), { hint: { $natural: 1 } }).toArray()), described).toEqual(
        byOwnMatcher,
      );
      // Read two at a time: each batch after the first is matched by a later command on the same filter.
      expect(idsOf(await rows.find(filterOf(candidates), { batchSize: 2 }).toArray()), described).toEqual(byOwnMatcher);
    }
});

it('updates by $in of strings exactly the documents MongoDB updates, as a claim of travellers does', async () => {
  const claimed = ['row-2', 'row-9', 'row-17', 'absent'];
  const result = await rows.updateMany(
    { _id: { $in: claimed }, field: { $in: ['blue', 'yellow', ''] } },
    { $set: { claim: 'c1' } },
  );
  expect(result.modifiedCount).toBe(3);
  expect(idsOf(await rows.find({ claim: 'c1' } as Document).toArray())).toEqual(['row-17', 'row-2', 'row-9']);
});

it('finds by each of many $in lists, several at once and one after another, what that list holds', async () => {
  // More lists than the server keeps sets for, each a new list of the same few lengths: a set kept for another list
  // (or for this one's id after it was freed) would answer for the wrong candidates.
  const lists = Array.from({ length: 150 }, (_, n) => [
    n % 3 === 0 ? 'red' : n % 3 === 1 ? 'blue' : 'é漢',
    `other-${n}`,
  ]);
  for (let start = 0; start < lists.length; start += 10) {
    const group = lists.slice(start, start + 10);
    const found = await Promise.all(group.map((candidates) => rows.find({ field: { $in: candidates } }).toArray()));
    for (const [offset, candidates] of group.entries())
      expect(idsOf(found[offset]!), JSON.stringify(candidates)).toEqual(expectedIds(candidates));
  }
});

/*
 * The set of a `$in` list is kept for the list while it equals a copy of it: test/support/secantusdb_in_matching_check.py
 * changes lists in place between matches and matches more lists than are kept, against SecantusDB's own matcher.
 */
it("matches a $in list changed in place, and each of more lists than it keeps sets for, as SecantusDB's matcher does", async () => {
  const compared = await runSecantusDbCheck('secantusdb_in_matching_check.py');
  expect(compared.stdout).toContain('0 differences');
  expect(compared.exitCode).toBe(0);
});
