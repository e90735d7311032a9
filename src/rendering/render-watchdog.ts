import { setTimeout as delay } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import type { RenderPlace, RenderProgress } from './render-progress.ts';

/**
 * How many times the bound a field may render by the clock on the wall, however little of the processor its thread
 * gets: the bound for a thread whose processor time cannot be read, and the most a starved machine stretches a hostile
 * render.
 */
export const wallLimitFactor = 10;

const samePlace = (a: RenderPlace | null, b: RenderPlace) =>
  a !== null && a.since === b.since && a.device === b.device && a.field === b.field;

/**
 * Watches one task's progress and calls `stop` with the place that has rendered for `timeoutMs` of its thread's own
 * processor time, or for `wallLimitFactor` times that by the clock. Processor time, not the clock: on a starved machine
 * a thread that waits for a core has not spent its bound, so ordinary content is not failed for the machine's load,
 * while content that runs for minutes still stops once it has used the bound. A thread cannot use more processor time
 * than passes on the clock, so nothing is asked of it before the bound has passed there. Answers the function that
 * ends the watch.
 */
export function watchRender(
  progress: RenderProgress,
  threads: () => readonly Worker[],
  timeoutMs: number,
  stop: (place: RenderPlace) => void,
): () => void {
  const wallLimitMs = wallLimitFactor * timeoutMs;
  const ended = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const after = (ms: number) => {
    timer = setTimeout(check, Math.max(1, ms));
  };
  const check = async () => {
    const place = progress.read();
    if (place === null) return after(timeoutMs);
    const wallMs = Date.now() - place.since;
    if (wallMs < timeoutMs) return after(timeoutMs - wallMs);
    const cpuMs = wallMs >= wallLimitMs ? Number.POSITIVE_INFINITY : await cpuMsAt(place, wallLimitMs - wallMs);
    if (ended.signal.aborted) return;
    // Moved on meanwhile: the time read may be another field's, so the next field is read afresh.
    if (!samePlace(progress.read(), place)) return check();
    if (cpuMs >= timeoutMs) return stop(place);
    after(Math.min(timeoutMs - cpuMs, wallLimitMs - (Date.now() - place.since)));
  };
  /** The processor time the place has used at least: its thread's now, less what it had used when the place began. */
  const cpuMsAt = async (place: RenderPlace, waitMs: number): Promise<number> => {
    const thread = threads().find((worker) => worker.threadId === place.thread);
    if (thread === undefined) return 0;
    const answered = new AbortController();
    const signal = AbortSignal.any([ended.signal, answered.signal]);
    const timeUp = delay(waitMs, Number.POSITIVE_INFINITY, { signal }).catch(() => 0);
    const used = thread.cpuUsage().then(
      ({ user, system }) => (user + system - place.cpuMicros) / 1000 - (place.since - place.cpuAt),
      () => 0,
    );
    try {
      return await Promise.race([used, timeUp]);
    } finally {
      answered.abort();
    }
  };
  after(timeoutMs);
  return () => {
    ended.abort();
    clearTimeout(timer);
  };
}
