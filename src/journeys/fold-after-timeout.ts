import { foldRecordOnly, goesOnNow, isRecordOnly, type Move, settled } from './fold-record-only.ts';
import { runIsolated } from './run-isolated.ts';
import type { StepContext, Traveller } from './steps/step-context.ts';

/** A move that is a waitForEvent's timeout alone, going on now. */
const timedOutAlone = (move: Move) =>
  move.steps.length === 1 && move.steps[0]!.outcome?.timedOut === true && goesOnNow(move.result);

/**
 * The claimed travellers whose waitForEvent timed out run the step it leads to in the same step run, under the same
 * runId, and one write then records both (with the record-only steps after it): the reminder of most flows costs one
 * write of the traveller, not two. The timeout runs the same again after a lost write, since no event can move a
 * traveller whose timeout is claimed (holdForEvent); a branch or split after it could come out otherwise, so the step
 * after those runs from a stored record. Those the step fails for keep the timeout's move and run the step from that
 * record under the same runId, which keys what the failed run may have written (a notification stored and queued).
 */
export async function foldAfterTimeout(
  context: StepContext,
  travellers: Traveller[],
  moves: Map<string, Move>,
): Promise<Map<string, Move>> {
  const timedOut = travellers.flatMap((traveller) => {
    const move = moves.get(traveller._id);
    return move && timedOutAlone(move) ? [settled(traveller, move, context.now)] : [];
  });
  const atNext = Map.groupBy(timedOut, (traveller) => traveller.at!);
  const folded = new Map(moves);
  for (const [stepId, group] of atNext) {
    const step = context.version.steps.find((candidate) => candidate.id === stepId);
    if (!step || isRecordOnly(step)) continue;
    const { results, failed } = await runIsolated(context, step, group);
    for (const [id, after] of await foldRecordOnly(context, group, results, stepId))
      folded.set(id, { steps: [...moves.get(id)!.steps, ...after.steps], result: after.result });
    for (const id of failed.keys()) folded.set(id, { ...moves.get(id)!, runId: context.runId });
  }
  return folded;
}
