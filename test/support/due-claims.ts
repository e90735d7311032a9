import { claimBatchSize, claimFound, takeBatch } from '../../src/journeys/claim-due-travellers.ts';
import { findDue } from '../../src/journeys/find-due.ts';
import type { StepDeps, Traveller } from '../../src/journeys/steps/step-context.ts';

/**
 * One claim of the step runner's, as its backlog makes it (src/journeys/due-backlog.ts): up to a batch of the oldest
 * due travellers, taken for the test; `found` is how many were due.
 */
export async function claimDueTravellers(
  deps: Parameters<typeof claimFound>[0] & Pick<StepDeps, 'queues'>,
  leaseMs: number,
  limit = claimBatchSize,
): Promise<{ claim: string; travellers: Traveller[]; found: number }> {
  const { found } = await findDue(deps, new Date(), limit);
  return { ...(await claimFound(deps, leaseMs, takeBatch(found))), found: found.length };
}
