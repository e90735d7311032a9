import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { JourneyStats } from '../schemas/journey.ts';

type StatsDeps = Pick<Deps, 'redis' | 'config'>;

/** Changes to one journey's counts: `entered`, `completed`, `exited`, and `<stepId>.<count>` for a step's. */
export type StatsChanges = Map<string, number>;

export function addCount(changes: StatsChanges, field: string, by = 1): void {
  changes.set(field, (changes.get(field) ?? 0) + by);
}

/** One pipeline of HINCRBY per journey: counts are gathered per batch of travellers, never per traveller. */
export async function recordStats(deps: StatsDeps, byJourney: Map<string, StatsChanges>): Promise<void> {
  if (byJourney.size === 0) return;
  const pipeline = deps.redis.pipeline();
  for (const [journeyId, changes] of byJourney) {
    const key = redisKeys.journeyStats(deps.config.queuePrefix, journeyId);
    for (const [field, by] of changes) if (by !== 0) pipeline.hincrby(key, field, by);
  }
  await pipeline.exec();
}

export function statsFor(byJourney: Map<string, StatsChanges>, journeyId: string): StatsChanges {
  const changes = byJourney.get(journeyId) ?? new Map<string, number>();
  byJourney.set(journeyId, changes);
  return changes;
}

/** The journey's counts; push steps' sent, failed, clicked and conversions come from their notifications. */
export async function readStats(
  deps: StatsDeps,
  journeyId: string,
  steps: Array<{ id: string; type: string }>,
  pushCounts: Map<string, { sent: number; failed: number; clicked: number; conversions: number }>,
): Promise<JourneyStats> {
  const raw = await deps.redis.hgetall(redisKeys.journeyStats(deps.config.queuePrefix, journeyId));
  const count = (field: string) => Number(raw[field] ?? 0);
  const entered = count('entered');
  const completed = count('completed');
  const exited = count('exited');
  const stepStats: JourneyStats['steps'] = {};
  for (const step of steps) {
    stepStats[step.id] = {
      entered: count(`${step.id}.entered`),
      waiting: Math.max(0, count(`${step.id}.waiting`)),
      conversions: 0,
      ...(step.type === 'push' && (pushCounts.get(step.id) ?? { sent: 0, failed: 0, clicked: 0, conversions: 0 })),
    };
  }
  return { entered, active: Math.max(0, entered - completed - exited), completed, exited, steps: stepStats };
}
