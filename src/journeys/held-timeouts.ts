import { anyProject } from '../queues/pending-events.ts';

/**
 * How long past its time a waitForEvent timeout waits at most for the events accepted before it: an ingestion that
 * lags longer (a database outage, a job retried for long) no longer holds it.
 */
export const heardWaitMs = 10 * 60_000;

/** What a due read knows of a traveller to tell whether its step is a held timeout. */
export interface DueStep {
  projectId: string;
  dueAt: Date;
  /** Set while the traveller listens at a waitForEvent step: its due step is then the timeout. */
  listening?: object | null;
}

export interface HeldTimeouts {
  /** No traveller due at or before this is held. */
  before: Date;
  isHeld(step: DueStep): boolean;
}

/**
 * The waitForEvent timeouts not to run yet: those due after the oldest event of their project accepted and not yet
 * ingested (pendingEventsSince), so that an event reported before the timeout counts however far ingestion is behind.
 * Other projects' travellers and other steps are not held. Null when nothing is.
 */
export function heldTimeouts(pendingSince: Map<string, number>, now: Date): HeldTimeouts | null {
  const floor = now.getTime() - heardWaitMs;
  const forAny = pendingSince.get(anyProject) ?? Number.POSITIVE_INFINITY;
  const since = (projectId: string) => Math.max(floor, Math.min(pendingSince.get(projectId) ?? forAny, forAny));
  const before = Math.max(floor, Math.min(...pendingSince.values()));
  if (before >= now.getTime()) return null;
  return {
    before: new Date(before),
    isHeld: (step) => step.listening != null && step.dueAt.getTime() > since(step.projectId),
  };
}
