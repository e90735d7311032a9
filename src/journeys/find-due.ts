import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import { pendingEventsSince } from '../queues/pending-events.ts';
import { type DueStep, type TimeoutWaits, timeoutWaits } from './timeout-waits.ts';

type ClaimState = 'due' | 'running';
interface Bound extends DueStep {
  _id: string;
  seq: number;
  /** The claim of a traveller whose lease passed; null for a due one. */
  claim?: string | null;
}

/**
 * The oldest due steps, in the order of the {state, dueAt, _id} index: due ones, and those whose lease passed, due
 * `from` on. No other field is filtered on: the local server would then look the state up alone.
 */
export const dueTravellersQuery = (models: Models, state: ClaimState, now: Date, limit: number, from?: Date) =>
  models.JourneyTraveller.find(
    { state, dueAt: from ? { $gte: from, $lte: now } : { $lte: now } },
    { _id: 1, dueAt: 1, seq: 1, claim: 1, projectId: 1, listening: 1 },
  )
    .sort({ dueAt: 1, _id: 1 })
    .limit(limit)
    .lean<Bound[]>();

/** A due traveller found, in claim order: those whose lease passed, then those due, each oldest first. */
export type Found = { state: ClaimState } & Bound;

/** A read past waiting timeouts goes on in pages of its size, at most this many, so that they do not fill it. */
const mostPages = 4;

/**
 * The oldest due travellers but waiting timeouts: none waits up to `waiting.before`; those after it are read past
 * (unless `readPast` is false), in pages that start at the last one's time. Each page takes its first time again (a
 * time may be shared, and the local server leaves out a document at a range's inclusive end), and skips those seen.
 */
async function dueNotWaiting(models: Models, now: Date, limit: number, waiting: TimeoutWaits, readPast: boolean) {
  const found = await dueTravellersQuery(models, 'due', waiting.before, limit);
  const seen = new Set(found.map(({ _id }) => _id));
  const [started, foundBefore] = [Date.now(), found.length];
  let from = waiting.before;
  for (let page = 0; readPast && page < mostPages && found.length < limit; page++) {
    const read = await dueTravellersQuery(models, 'due', now, limit, from);
    const unseen = read.filter(({ _id }) => !seen.has(_id));
    for (const { _id } of unseen) seen.add(_id);
    found.push(...unseen.filter((step) => !waiting.waits(step)).slice(0, limit - found.length));
    if (read.length < limit || unseen.length === 0) break;
    from = read.at(-1)!.dueAt;
  }
  return { found, readPast: readPast ? { ms: Date.now() - started, found: found.length - foundBefore } : null };
}

/**
 * The oldest due steps: those whose worker died holding them (lease passed) first, then those due, but for the
 * waitForEvent timeouts whose project's events accepted before them are still to be ingested (timeoutWaits), read past
 * unless `readPast` is false (the due steps among them then wait for a later read). Answers how long reading past them
 * took and how many due steps it found, null when none waited, lapsed claims filled the read, or they were not read
 * past.
 */
export async function findDue(
  deps: Pick<Deps, 'models' | 'queues'>,
  now: Date,
  limit: number,
  readPast = true,
): Promise<{ found: Found[]; readPast: { ms: number; found: number } | null }> {
  const waiting = timeoutWaits(await pendingEventsSince(deps), now);
  const lapsed = await dueTravellersQuery(deps.models, 'running', now, limit);
  const rest = limit - lapsed.length;
  const due =
    rest <= 0
      ? { found: [], readPast: null }
      : waiting
        ? await dueNotWaiting(deps.models, now, rest, waiting, readPast)
        : { found: await dueTravellersQuery(deps.models, 'due', now, rest), readPast: null };
  const found = [
    ...lapsed.map((bound) => ({ state: 'running' as const, ...bound })),
    ...due.found.map((bound) => ({ state: 'due' as const, ...bound })),
  ];
  return { found, readPast: due.readPast };
}
