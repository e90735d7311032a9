import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { EndReason } from '../schemas/journey-traveller.ts';

/**
 * Pausing holds the journey's travellers where they are (a running step finishes, and its traveller is held by the
 * runner at its next step); resuming makes them due again, so a wait that ended meanwhile runs at once.
 */
export async function holdTravellers(models: Models, journeyId: string, hold: boolean): Promise<void> {
  const [from, to] = hold ? (['due', 'held'] as const) : (['held', 'due'] as const);
  await models.JourneyTraveller.updateMany({ journeyId, state: from }, { $set: { state: to } });
}

/** Every traveller of the journey leaves at once: a step running for one finds it gone and records nothing. */
export async function endTravellers(
  deps: Pick<Deps, 'models'>,
  journeyId: string,
  endReason: EndReason,
): Promise<void> {
  await deps.models.JourneyTraveller.updateMany(
    { journeyId, state: { $in: ['due' as const, 'running' as const, 'held' as const] } },
    { $set: { state: 'done', endReason, endedAt: new Date(), dueAt: null, runId: null, listening: null } },
  );
}
