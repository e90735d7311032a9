import type { IngestedEvent } from '../schemas/events.ts';
import { travellerId } from '../models/journey-traveller.ts';
import { ignoringDuplicateKeys } from '../infra/ignore-duplicate-keys.ts';
import { deviceInSegment } from '../segments/device-in-segment.ts';
import type { StoredJourney } from './active-journeys.ts';
import type { TravelDeps, Visit } from './visit.ts';
import { subjectDevices } from './subject-devices.ts';

export interface Entry {
  journey: StoredJourney;
  event: IngestedEvent;
  eventId: string;
  visit: number;
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

/**
 * Writes one traveller record per entry, due at its first step at once, in one unordered insert under ids made of
 * (journey, subject, visit): two workers entering the same subject at once, or a replayed job, store it once.
 */
export async function enterTravellers(
  deps: TravelDeps,
  projectId: string,
  entries: Entry[],
  now: Date,
): Promise<Entry[]> {
  const admitted: Entry[] = [];
  for (const entry of entries) if (await inAudience(deps, projectId, entry, now)) admitted.push(entry);
  if (admitted.length === 0) return [];
  const documents = admitted.map(({ journey, event, eventId, visit }) => ({
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
    dueAt: now,
    runId: null,
    listening: null,
    waitingIn: null,
    passed: [],
    endedAt: null,
    endReason: null,
  }));
  await ignoringDuplicateKeys(documents.length, () =>
    deps.models.JourneyTraveller.collection.insertMany(documents as never[], { ordered: false }),
  );
  return admitted;
}
