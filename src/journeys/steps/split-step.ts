import { createHash } from 'node:crypto';
import type { StepResult, StepRun } from './step-context.ts';

/**
 * Each traveller takes one path with the path's percent as its chance, drawn from a hash of its visit and place in
 * it: a rerun of the step (a worker lost mid-batch) draws the same path.
 */
export const runSplit: StepRun<'split'> = async (_context, step, travellers) => {
  const results = new Map<string, StepResult>();
  for (const traveller of travellers) {
    const digest = createHash('sha256').update(`${traveller._id}\n${traveller.seq}\n${step.id}`).digest();
    const draw = digest.readUInt32BE(0) % 100;
    let path = step.paths.at(-1)!;
    for (let index = 0, below = 0; index < step.paths.length; index += 1) {
      below += step.paths[index]!.percent;
      if (draw < below) {
        path = step.paths[index]!;
        break;
      }
    }
    results.set(traveller._id, { next: path.next, outcome: { path: path.name } });
  }
  return results;
};
