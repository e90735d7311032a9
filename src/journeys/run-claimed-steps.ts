import { randomUUID } from 'node:crypto';
import { journeyVersionId } from '../models/journey.ts';
import type { JourneyVersion } from './active-journeys.ts';
import { sameResult, type StepDeps, type Traveller } from './steps/step-context.ts';
import { exitTarget } from './journey-graph.ts';
import { advanceTravellers } from './advance-travellers.ts';
import { foldRecordOnly } from './fold-record-only.ts';
import { failTravellers } from './fail-travellers.ts';
import { runIsolated } from './run-isolated.ts';
import { foldAfterTimeout } from './fold-after-timeout.ts';
import { recordStats, statsFor, type StatsChanges } from './journey-stats.ts';
import { claimedInRedis, releaseStepRuns } from './traveller-claims.ts';

export interface RunnerState {
  defaultZone(projectId: string): Promise<string>;
  /** Versions never change once stored, so a worker keeps those it has read. */
  versions: Map<string, JourneyVersion>;
}

async function versionsOf(deps: StepDeps, state: RunnerState, travellers: Traveller[]) {
  const ids = [...new Set(travellers.map((traveller) => journeyVersionId(traveller.journeyId, traveller.version)))];
  const missing = ids.filter((id) => !state.versions.has(id));
  if (missing.length > 0) {
    const read = await deps.models.JourneyVersion.find({ _id: { $in: missing } }).lean<JourneyVersion[]>();
    for (const version of read) state.versions.set(version._id, version);
    if (state.versions.size > 10_000) state.versions.delete(state.versions.keys().next().value!);
  }
}

/** Ids of the travellers claimed in Redis (claimFound), whose claims the runner lets go. */
const idsClaimedInRedis = (travellers: Traveller[]) => travellers.filter(claimedInRedis).map(({ _id }) => _id);

/**
 * Travellers of a paused journey stop where they are, held at their step until it is resumed. Those claimed in Redis
 * keep their step run's runId on their record, for their step to run under it whenever the journey resumes.
 */
async function holdPaused(deps: StepDeps, claim: string, paused: string[], travellers: Traveller[]) {
  const inRedis = travellers.filter((traveller) => claimedInRedis(traveller) && paused.includes(traveller.journeyId));
  const byRunId = Map.groupBy(inRedis, ({ runId }) => runId);
  const hold = (runId?: string | null) => ({ $set: { state: 'held' as const, claim: null, ...(runId && { runId }) } });
  await deps.models.JourneyTraveller.bulkWrite(
    [
      { updateMany: { filter: { claim, journeyId: { $in: paused } }, update: hold() } },
      ...[...byRunId].map(([runId, held]) => ({
        updateMany: {
          filter: { _id: { $in: held.map(({ _id }) => _id) }, state: 'due' as const },
          update: hold(runId),
        },
      })),
    ],
    { ordered: false },
  );
  await releaseStepRuns(deps, claim, idsClaimedInRedis(inRedis), 'recorded');
}

/** Travellers due at the exit, their journey's last wait over: they complete it. */
const leaving = (group: Traveller[]) => ({
  results: sameResult(group, { next: exitTarget, outcome: null }),
  failed: new Map<string, string>(),
});

/**
 * Runs the claimed travellers' steps, those at the same step of the same version together: one step run per group,
 * then one write per distinct move (the step and the record-only ones after it at once, and after a waitForEvent's
 * timeout the step it leads to: foldAfterTimeout) moving them on. Travellers of a paused journey are held where they
 * are. A step that fails for a traveller is retried for it alone, a bounded number of times; the others go on at once.
 * Those whose next step is due now run it in this run, still claimed, and so on until each waits or leaves.
 */
export async function runClaimedSteps(deps: StepDeps, state: RunnerState, claim: string, travellers: Traveller[]) {
  const journeyIds = [...new Set(travellers.map((traveller) => traveller.journeyId))];
  const journeys = await deps.models.Journey.find({ _id: { $in: journeyIds } }, { status: 1 }).lean();
  const status = new Map(journeys.map((journey) => [journey._id, journey.status]));
  const paused = journeyIds.filter((id) => status.get(id) !== 'active' && status.has(id));
  if (paused.length > 0) await holdPaused(deps, claim, paused, travellers);
  await versionsOf(deps, state, travellers);
  const groups = new Map<string, Traveller[]>();
  for (const traveller of travellers) {
    if (status.get(traveller.journeyId) !== 'active') continue;
    const key = `${journeyVersionId(traveller.journeyId, traveller.version)}\n${traveller.at}\n${traveller.runId}`;
    const group = groups.get(key);
    if (group) group.push(traveller);
    else groups.set(key, [traveller]);
  }
  const stats = new Map<string, StatsChanges>();
  const now = new Date();
  const lease = new Date(now.getTime() + deps.config.journeyClaimLeaseMs);
  const goingOn: Traveller[] = [];
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const [first] = group as [Traveller];
      const version = state.versions.get(journeyVersionId(first.journeyId, first.version));
      const step = version?.steps.find((candidate) => candidate.id === first.at);
      if (!version || (!step && first.at !== exitTarget)) return;
      const context = {
        deps,
        defaultZone: state.defaultZone,
        projectId: first.projectId,
        journeyId: first.journeyId,
        version,
        runId: first.runId ?? claim,
        now,
      };
      const batch = { claim, stepId: first.at!, travellers: group, now, lease, move: randomUUID() };
      const { results, failed } = step ? await runIsolated(context, step, group) : leaving(group);
      const changes = statsFor(stats, first.journeyId);
      if (failed.size > 0)
        deps.log.warn(
          { journeyId: first.journeyId, stepId: batch.stepId, travellers: failed.size },
          'journey step failed',
        );
      const recorded = await foldRecordOnly(context, group, results, batch.stepId);
      const moves = step?.type === 'waitForEvent' ? await foldAfterTimeout(context, group, recorded) : recorded;
      try {
        goingOn.push(...(await advanceTravellers(deps.models, batch, moves, changes)));
        await failTravellers(deps.models, batch, failed, changes);
        await releaseStepRuns(deps, claim, idsClaimedInRedis(group), 'recorded');
      } catch (error) {
        deps.log.error(
          { err: error, journeyId: first.journeyId, stepId: batch.stepId },
          'journey step not recorded; it runs again',
        );
      }
    }),
  );
  await recordStats(deps, stats);
  if (goingOn.length > 0) await runClaimedSteps(deps, state, claim, goingOn);
  return travellers.length;
}
