/**
 * How long past its time a waitForEvent timeout waits at most for the events accepted before it: an ingestion that
 * lags longer (a database outage, a job retried for long) no longer holds it.
 */
export const timeoutWaitMs = 10 * 60_000;

/** What a due read knows of a traveller to tell whether its step is a timeout still waiting for events. */
export interface DueStep {
  projectId: string;
  dueAt: Date;
  /** Set while the traveller listens at a waitForEvent step: its due step is then the timeout. */
  listening?: object | null;
}

export interface TimeoutWaits {
  /** No step due at or before this waits. */
  before: Date;
  waits(step: DueStep): boolean;
}

/**
 * The waitForEvent timeouts not to run yet: those due after the oldest event of their project accepted and not yet
 * ingested (pendingEventsSince), so that an event reported before the timeout counts however far ingestion is behind.
 * Other projects' travellers and other steps do not wait. Null when nothing does.
 */
export function timeoutWaits(pendingSince: Map<string, number>, now: Date): TimeoutWaits | null {
  const floor = now.getTime() - timeoutWaitMs;
  const since = (projectId: string) => Math.max(floor, pendingSince.get(projectId) ?? Number.POSITIVE_INFINITY);
  const before = Math.max(floor, Math.min(...pendingSince.values()));
  if (before >= now.getTime()) return null;
  return {
    before: new Date(before),
    waits: (step) => step.listening != null && step.dueAt.getTime() > since(step.projectId),
  };
}
