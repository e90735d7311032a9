import type { IngestedEvent } from '../schemas/events.ts';
import { travellerId } from '../models/journey-traveller.ts';
import { refusedRepeats } from '../infra/ignore-duplicate-keys.ts';
import { deviceInSegment } from '../segments/device-in-segment.ts';
import type { JourneyVersion, StoredJourney } from './active-journeys.ts';
import type { Traveller } from './steps/step-context.ts';
import { recordOnlyMoves, settled, type Move } from './fold-record-only.ts';
import { countsOf } from './counted-moves.ts';
import { addCount, statsFor, type StatsChanges } from './journey-stats.ts';
import type { TravelDeps, Visit } from './visit.ts';
import { subjectDevices } from './subject-devices.ts';
import { exitCounts, exitedByRule } from './traveller-events.ts';

export interface Entry {
  journey: StoredJourney;
  /** The journey's current version, which the entry takes. */
  version: JourneyVersion | undefined;
  event: IngestedEvent;
  eventId: string;
  visit: number;
  /** An exit rule matched a later event of the same job: the traveller is stored as having left by it. */
  exited?: boolean;
}

/** CONTRACTS §18 `reentry`, for a subject not travelling the journey now; an event enters a subject once. */
export function mayEnter(journey: StoredJourney, last: Visit | undefined, eventId: string, now: Date): boolean {
  if (!last) return true;
  if (last.entryEventId === eventId) return false;
  const { reentry } = journey;
  if (reentry === 'never') return false;
  if (reentry === 'afterExit') return true;
  return !!last.endedAt && last.endedAt.getTime() + reentry.afterSeconds * 1000 <= now.getTime();
}

/** With an audience, whether the subject (a device, or any device of the user) is in its segment now. */
async function inAudience(deps: TravelDeps, projectId: string, entry: Entry, now: Date): Promise<boolean> {
  const audience = entry.journey.audience;
  if (!audience) return true;
  const segment = await deps.models.Segment.findOne({ projectId, _id: audience.segmentId }).lean();
  if (!segment) return false;
  const devices = await subjectDevices(deps.models, projectId, entry.event.subjectType, entry.event.subjectId);
  for (const device of devices) if (await deviceInSegment(deps, device, segment, now)) return true;
  return false;
}

/** The traveller's record as the entry writes it when no step has run: due at once at the first step. */
function arrived(projectId: string, { journey, event, eventId, visit }: Entry, now: Date): Traveller {
  return {
    _id: travellerId(journey._id, event.subjectType, event.subjectId, visit),
    projectId,
    journeyId: journey._id,
    version: journey.version,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    visit,
    entryEvent: { type: event.type, data: event.data },
    entryEventId: eventId,
    enteredAt: now,
    state: 'due',
    at: journey.steps[0]!.id,
    seq: 0,
    failures: 0,
    dueAt: now,
    runId: null,
    claim: null,
    movedBy: null,
    listening: null,
    waitingIn: null,
    passed: [],
    endedAt: null,
    endReason: null,
  };
}

/** A traveller's record as the entry writes it, and what storing it adds to its journey's counts. */
interface EnteredRecord {
  record: Traveller;
  counts: Array<[field: string, by: number]>;
}

/**
 * The records of one journey's entries, each already through the record-only steps it starts with (a wait, branch,
 * split, or waitForEvent starting to wait), run as the step runner runs them, and their counts; those whose first step
 * acts outside the record are due at it at once. An entry an exit rule took out later in its job is stored as having
 * left by it, wherever those steps left it, unless they completed it.
 */
async function enteredRecords(deps: TravelDeps, projectId: string, entries: Entry[], now: Date) {
  const [{ journey, version }] = entries as [Entry];
  const travellers = entries.map((entry) => arrived(projectId, entry, now));
  const defaultZone = async (id: string) => (await deps.settings.get(id))?.defaultTimezone ?? 'UTC';
  const context = { deps, defaultZone, projectId, journeyId: journey._id, runId: entries[0]!.eventId, now };
  const moves = version
    ? await recordOnlyMoves({ ...context, version }, version.steps[0]!, travellers)
    : new Map<string, Move>();
  return travellers.map((traveller, position): EnteredRecord => {
    const move = moves.get(traveller._id);
    const record = move ? settled(traveller, move, now) : traveller;
    const counts: EnteredRecord['counts'] = [['entered', 1], ...(move ? countsOf(traveller.at!, traveller, move) : [])];
    if (!entries[position]!.exited || record.state === 'done') return { record, counts };
    return { record: { ...record, ...exitedByRule(now) }, counts: [...counts, ...exitCounts(record.waitingIn)] };
  });
}

/**
 * Writes one traveller record per entry in one unordered insert under ids made of (journey, subject, visit): two
 * workers entering the same subject at once, or a replayed job, store it once, and only the record stored counts.
 * Adds the stored entries' counts to `stats`.
 */
export async function enterTravellers(
  deps: TravelDeps,
  projectId: string,
  entries: Entry[],
  now: Date,
  stats: Map<string, StatsChanges>,
): Promise<number> {
  const byJourney = new Map<string, Entry[]>();
  for (const entry of entries)
    if (await inAudience(deps, projectId, entry, now))
      byJourney.set(entry.journey._id, [...(byJourney.get(entry.journey._id) ?? []), entry]);
  if (byJourney.size === 0) return 0;
  const entered = (
    await Promise.all([...byJourney.values()].map((group) => enteredRecords(deps, projectId, group, now)))
  ).flat();
  const refused = new Set(
    await refusedRepeats(entered.length, () =>
      deps.models.JourneyTraveller.collection.insertMany(entered.map(({ record }) => record) as never[], {
        ordered: false,
      }),
    ),
  );
  const stored = entered.filter((_, position) => !refused.has(position));
  for (const { record, counts } of stored)
    for (const [field, by] of counts) addCount(statsFor(stats, record.journeyId), field, by);
  return stored.length;
}
