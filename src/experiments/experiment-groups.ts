import { createHash } from 'node:crypto';
import type { StoredExperiment, StoredVariant } from '../schemas/experiment.ts';
import type { TargetDevice } from '../targets/target-device.ts';

/** The two fan-outs of an experiment: the tested share with its variants, then the rest with the winner. */
export type ExperimentPhase = 'test' | 'winner';

/** Batch numbers of the winner's fan-out start here, so that its deliver jobs never take a test batch's id. */
export const winnerBatchOffset = 1_000_000;

/**
 * Where a device falls in an experiment, from a hash of the notification and device ids alone: the same device gets
 * the same answer in a fan-out resumed after a crash and in the winner's fan-out later, whatever else changed. Below
 * testPercent it is tested, and the tested share is cut evenly among the variants; null: it waits for the winner.
 */
export function testedVariant(notificationId: string, deviceId: string, testPercent: number, variants: number) {
  const digest = createHash('sha256').update(`${notificationId}\n${deviceId}`).digest();
  const position = digest.readUInt32BE(0) / 2 ** 32;
  const share = testPercent / 100;
  if (position >= share) return null;
  return Math.min(variants - 1, Math.floor((position / share) * variants));
}

export interface ExperimentSend {
  _id: string;
  experiment?: StoredExperiment | null;
  variants?: StoredVariant[] | null;
}

/**
 * The devices of this phase, each with the variant it gets: in the test, the tested ones with theirs; for the winner,
 * the others with the winner. A send without an experiment passes through unchanged.
 */
export async function* experimentAudience(
  send: ExperimentSend,
  phase: ExperimentPhase,
  devices: AsyncIterable<TargetDevice>,
): AsyncIterable<TargetDevice> {
  const { experiment, variants } = send;
  if (!experiment || !variants) return yield* devices;
  for await (const device of devices) {
    const tested = testedVariant(send._id, device.deviceId, experiment.testPercent, variants.length);
    if (phase === 'test' && tested !== null) yield { ...device, variant: variants[tested]!.name };
    else if (phase === 'winner' && tested === null && experiment.winner)
      yield { ...device, variant: experiment.winner };
  }
}

/**
 * An experiment's device group as job ids and progress keys name it (a variant's name may hold any character): the
 * variant's place among the send's, marked apart for the winner's fan-out, whose parts must not take a test part's id.
 */
export function experimentGroup(send: ExperimentSend, phase: ExperimentPhase, variant: string): string {
  const index = send.variants?.findIndex((candidate) => candidate.name === variant) ?? -1;
  return `${phase === 'winner' ? 'w' : 'v'}${index}`;
}
