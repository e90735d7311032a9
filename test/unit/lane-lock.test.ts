import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lock } from 'proper-lockfile';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { takeLaneLock } from '../support/lane-lock.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pushengine-lane-lock-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('takes the lane at once after a file of the same worker that never let it go (its after-all hook threw)', async () => {
  await takeLaneLock('left-held', { dir, waitAtMostMs: 60_000 });
  const startedAt = Date.now();
  const release = await takeLaneLock('left-held', { dir, waitAtMostMs: 60_000 });
  expect(Date.now() - startedAt).toBeLessThan(5_000);
  await release();
});

it('fails a file whose lane another holder never lets go after the wait, naming the lane', async () => {
  const otherHolder = await lock(join(dir, 'held-elsewhere'), { realpath: false, stale: 60_000 });
  try {
    await expect(takeLaneLock('held-elsewhere', { dir, waitAtMostMs: 1_000 })).rejects.toThrow(
      /the held-elsewhere lock was held for over 1 s: a file before this one/,
    );
  } finally {
    await otherHolder();
  }
  const release = await takeLaneLock('held-elsewhere', { dir, waitAtMostMs: 1_000 });
  await release();
});
