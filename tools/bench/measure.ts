import type { Queue } from 'bullmq';
import type { Db } from 'mongodb';
import { readFile } from 'node:fs/promises';
import { isUnavailableError } from '../../src/infra/unavailable.ts';

/**
 * Polls check until it holds. A check the store answers past its bound asks again: while SecantusDB gathers a large
 * segment for a send's first batch it answers every other command late, at 1,000,000 devices past a command's answer
 * bound, and the product's workers ask again too.
 */
export async function waitUntil(
  what: string | (() => string),
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await checkAnsweredInTime(check))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}

async function checkAnsweredInTime(check: () => Promise<boolean> | boolean): Promise<boolean> {
  try {
    return await check();
  } catch (error) {
    if (isUnavailableError(error)) return false;
    throw error;
  }
}

/** VmHWM: the most resident memory the process ever had (Linux), in MiB. */
export async function peakRssMiB(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

/** Jobs of the queue not finished yet: waiting, active, delayed or prioritized. */
export async function queueDepth(queue: Queue): Promise<number> {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

/** Clock ticks per second of /proc's CPU times: 100 on every Linux this runs on (USER_HZ). */
const ticksPerSecond = 100;

/** CPU seconds (user + system) the process has used so far (Linux), or 0 once it is gone. */
export async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [userTicks, systemTicks] = [Number(fields[11]), Number(fields[12])];
  return Number.isFinite(userTicks + systemTicks) ? (userTicks + systemTicks) / ticksPerSecond : 0;
}

/** CPU seconds each named process has used so far, and this one's as `bench` (the sandbox answers in it). */
export async function cpuByProcess(pids: Record<string, number>): Promise<Record<string, number>> {
  const read = await Promise.all(Object.entries(pids).map(async ([name, pid]) => [name, await cpuSeconds(pid)]));
  const own = process.cpuUsage();
  return { ...Object.fromEntries(read), bench: (own.user + own.system) / 1e6 };
}

/** The CPU seconds each process used between two readings of cpuByProcess. */
export const cpuBetween = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([name, seconds]) => [name, seconds - (before[name] ?? 0)]));

/** The names `/proc` gives processes (redis-server, python3), made unique with their pids where they repeat. */
export async function namedPids(pids: number[]): Promise<Record<string, number>> {
  const names = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/comm`, 'utf8').catch(() => `${pid}`)));
  const named: Record<string, number> = {};
  pids.forEach((pid, index) => {
    const name = names[index]!.trim();
    named[name in named ? `${name}-${pid}` : name] = pid;
  });
  return named;
}

/**
 * Has the storage engine write everything written so far to disk now (`fsync`, a checkpoint on MongoDB and on the
 * local server alike), so that a measurement begun next does not pay for the writes before it: otherwise a periodic
 * checkpoint (every 60 s) flushes them inside whichever measurement it falls in.
 */
export async function checkpointStorage(db: Db): Promise<void> {
  await db.admin().command({ fsync: 1 });
}
