import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

/**
 * The nice value of what `npm test` runs beside the lanes (the checks, the parallel files): low enough that they take
 * mostly the processor time the rest leaves, yet, unlike the lowest, still advance on a machine other work keeps busy.
 */
export const lowPriority = 10;

/**
 * This Node.js with the arguments, under `nice -n <niceness>` when one is given: the child and the processes it starts
 * in its session run at that priority.
 */
export function spawnNode(
  args: string[],
  { niceness, ...options }: SpawnOptions & { niceness?: number },
): ChildProcess {
  return niceness === undefined
    ? spawn(process.execPath, args, options)
    : spawn('nice', ['-n', String(niceness), process.execPath, ...args], options);
}
