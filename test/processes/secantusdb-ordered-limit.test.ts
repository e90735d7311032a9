import type { Collection } from 'mongodb';
import { beforeAll, expect, it } from 'vitest';
import { runSecantusDbCheck } from '../support/secantusdb-checks.ts';
import { useScratchDatabase } from '../support/scratch-database.ts';

interface Traveller {
  _id: string;
  state: string;
  dueAt?: Date | number | null;
}

const epoch = Date.UTC(2026, 0, 1);
const at = (seconds: number) => new Date(epoch + seconds * 1000);

/** Due travellers (some at the same time), others not due, and a few whose dueAt is of another type or missing. */
const rowsOf: Traveller[] = Array.from({ length: 300 }, (_, n) => {
  const state = n % 7 === 0 ? 'running' : 'due';
  if (n % 29 === 0) return { _id: `t-${n}`, state };
  if (n % 31 === 0) return { _id: `t-${n}`, state, dueAt: n % 2 ? null : n };
  return { _id: `t-${n}`, state, dueAt: at((n * 37) % 120) };
});

const scratch = useScratchDatabase();
let travellers: Collection<Traveller>;

beforeAll(async () => {
  travellers = scratch.db.collection<Traveller>('travellers');
  await travellers.createIndex({ state: 1, dueAt: 1, _id: 1 });
  await travellers.insertMany(rowsOf);
});

const idsOf = (found: Traveller[]) => found.map((row) => row._id);

/*
 * The local server stops the range scan of a find with a limit whose sort is its index's order
 * (local/services/secantusdb_ordered_limit.py): each such find must answer what the same find without a limit
 * answers, cut to the limit, in the same order.
 */
it('answers the oldest due travellers, limited, as the whole sorted read cut to the limit', async () => {
  const ranges = [{ $lte: at(60) }, { $lt: at(60) }, { $gte: at(10), $lte: at(90) }, { $gt: at(0) }, { $lte: at(500) }];
  for (const dueAt of ranges)
    for (const sort of [{ dueAt: 1, _id: 1 }, { dueAt: 1 }] as Array<Record<string, 1>>)
      for (const limit of [1, 3, 40, 500]) {
        const filter = { state: 'due', dueAt };
        const whole = idsOf(await travellers.find(filter).sort(sort).toArray());
        const described = `${JSON.stringify(filter)} ${JSON.stringify(sort)} limit ${limit}`;
        expect(idsOf(await travellers.find(filter).sort(sort).limit(limit).toArray()), described).toEqual(
          whole.slice(0, limit),
        );
      }
});

it("answers random finds with a limit as SecantusDB's own find, and fetches only the limit's documents", async () => {
  const compared = await runSecantusDbCheck('secantusdb_ordered_limit_check.py');
  expect(compared.stdout).toContain('0 differences');
  expect(compared.stdout).toContain('most documents fetched by a find of the oldest 5 of 2,000: 5\n');
  expect(compared.exitCode).toBe(0);
});

it('reads the oldest 5 of 5,000 due travellers in a small part of the time the whole range takes', async () => {
  const backlog = scratch.db.collection<Traveller>('backlog');
  await backlog.createIndex({ state: 1, dueAt: 1, _id: 1 });
  await backlog.insertMany(Array.from({ length: 5000 }, (_, n) => ({ _id: `b-${n}`, state: 'due', dueAt: at(n) })));
  const filter = { state: 'due', dueAt: { $lte: at(10_000) } };
  const fastest = async (read: () => Promise<Traveller[]>) => {
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      await read();
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  const oldest = () => backlog.find(filter).sort({ dueAt: 1, _id: 1 }).limit(5).toArray();
  expect(idsOf(await oldest())).toEqual(['b-0', 'b-1', 'b-2', 'b-3', 'b-4']);
  const limitedMs = await fastest(oldest);
  // The whole range in one batch, so that both reads are one command: without the stop, the limited read costs as
  // much server time as this one, less the documents' transfer.
  const wholeMs = await fastest(() => backlog.find(filter).sort({ dueAt: 1, _id: 1 }).batchSize(5000).toArray());
  expect(limitedMs * 5, `oldest 5 in ${limitedMs.toFixed(1)} ms, all 5,000 in ${wholeMs.toFixed(1)} ms`).toBeLessThan(
    wholeMs,
  );
});
