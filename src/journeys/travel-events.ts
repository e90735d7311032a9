import type { TravelDeps, Visit } from './visit.ts';
import type { Models } from '../models/index.ts';
import type { EventIngestJob } from '../queues/event-ingest.ts';
import type { IngestedEvent } from '../schemas/events.ts';
import { travellerId } from '../models/journey-traveller.ts';
import { journeyVersionId } from '../models/journey.ts';
import type { JourneyVersion, ProjectJourneys } from './active-journeys.ts';
import { matchesRule } from './event-rules.ts';
import { exitTarget } from './journey-graph.ts';
import { enterTravellers, mayEnter, type Entry } from './enter-travellers.ts';
import { exitCounts, exitTraveller, hearEvent } from './traveller-events.ts';
import { addCount, recordStats, statsFor, type StatsChanges } from './journey-stats.ts';

const subjectKey = (event: Subject) => `${event.subjectType}\n${event.subjectId}`;

type Subject = Pick<IngestedEvent, 'subjectType' | 'subjectId'>;

/**
 * Every visit of the subjects to any journey, newest first: the read of an ingest job's events that rules name, one
 * query per subject type on the {projectId, subjectType, subjectId, journeyId, visit} index (an $in of subject ids
 * after two equalities, a range every server plans on the index, where an $or of subjects may be scanned).
 */
export function subjectsVisitsQueries(models: Models, projectId: string, subjects: Subject[]) {
  const idsByType = new Map<Subject['subjectType'], string[]>();
  for (const { subjectType, subjectId } of subjects)
    idsByType.set(subjectType, [...(idsByType.get(subjectType) ?? []), subjectId]);
  return [...idsByType].map(([subjectType, ids]) =>
    models.JourneyTraveller.find({ projectId, subjectType, subjectId: { $in: ids } }, { passed: 0 })
      .sort({ visit: -1 })
      .lean<Array<Visit & Subject>>(),
  );
}

/** The latest visit of each (journey, subject) the events name: one indexed read per subject type for the job. */
async function latestVisits(deps: TravelDeps, projectId: string, events: IngestedEvent[]): Promise<Map<string, Visit>> {
  const subjects = [...new Map(events.map((event) => [subjectKey(event), event])).values()];
  const visits = (await Promise.all(subjectsVisitsQueries(deps.models, projectId, subjects))).flat();
  const latest = new Map<string, Visit>();
  for (const visit of visits) {
    const key = `${visit.journeyId}\n${subjectKey(visit)}`;
    if (!latest.has(key)) latest.set(key, visit);
  }
  return latest;
}

const travelling = (visit: Visit | undefined): boolean => !!visit && visit.state !== 'done';

/**
 * Whether an event was accepted while the visit listened: after it reached its waitForEvent step, and by the step's
 * timeout (its due time while it listens), however late it is ingested, since the step runner's timeout waits for it.
 */
const acceptedWhileListening = (visit: Visit, receivedAt: Date): boolean =>
  visit.listening!.since < receivedAt && (!visit.dueAt || receivedAt <= visit.dueAt);

/**
 * An exit rule matched the visit: one this job enters is stored as having left (no step of it is ever due), a stored
 * one leaves now. Answers whether it left.
 */
async function exitVisit(deps: TravelDeps, visit: Visit, entering: Entry | undefined, changes: StatsChanges) {
  if (entering) {
    entering.exited = true;
    return true;
  }
  if (!(await exitTraveller(deps.models, visit))) return false;
  for (const [field, by] of exitCounts(visit.waitingIn)) addCount(changes, field, by);
  return true;
}

/**
 * Matches the job's events against every journey's rules in memory: exit rules and waitForEvent steps of the
 * subject's current visit (on the version it travels), then entry. An event of a type no rule names costs nothing; the
 * others share one read of their subjects' visits per subject type. A subject enters a journey once per event, whatever the replays.
 */
export async function travelEvents(deps: TravelDeps, jobId: string, job: EventIngestJob): Promise<number> {
  const project: ProjectJourneys = await deps.activeJourneys.forProject(job.projectId);
  if (project.journeys.length === 0) return 0;
  const relevant = job.events
    .map((event, index) => ({ event, eventId: `${jobId}:${String(index).padStart(3, '0')}` }))
    .filter(({ event }) => project.eventTypes.has(event.type));
  if (relevant.length === 0) return 0;
  const visits = await latestVisits(
    deps,
    job.projectId,
    relevant.map(({ event }) => event),
  );
  const receivedAt = new Date(job.receivedAt);
  const stats = new Map<string, StatsChanges>();
  const entries: Entry[] = [];
  /** The visit of each (journey, subject) that an event of this job enters, stored at the job's end. */
  const pendingEntries = new Map<string, Entry>();
  for (const { event, eventId } of relevant) {
    for (const journey of project.journeys) {
      const key = `${journey._id}\n${subjectKey(event)}`;
      const visit = visits.get(key);
      if (visit && travelling(visit)) {
        const version = project.versions.get(journeyVersionId(journey._id, visit.version)) as JourneyVersion;
        if (version?.exit.some((rule) => matchesRule(rule, event, visit.entryEvent))) {
          if (await exitVisit(deps, visit, pendingEntries.get(key), statsFor(stats, journey._id)))
            visits.set(key, { ...visit, state: 'done', endedAt: receivedAt });
          continue;
        }
        if (version && visit.listening && acceptedWhileListening(visit, receivedAt)) {
          const movedTo = await hearEvent(deps, version, visit, { event, eventId }, receivedAt);
          if (movedTo !== null) addCount(statsFor(stats, journey._id), `${visit.listening.stepId}.waiting`, -1);
          if (movedTo === exitTarget) addCount(statsFor(stats, journey._id), 'completed');
        }
        continue;
      }
      if (journey.status !== 'active' || !matchesRule(journey.entry, event)) continue;
      if (!mayEnter(journey, visit, eventId, receivedAt)) continue;
      const version = project.versions.get(journeyVersionId(journey._id, journey.version));
      const entry: Entry = { journey, version, event, eventId, visit: (visit?.visit ?? 0) + 1 };
      entries.push(entry);
      pendingEntries.set(key, entry);
      const _id = travellerId(journey._id, event.subjectType, event.subjectId, entry.visit);
      visits.set(key, {
        _id,
        journeyId: journey._id,
        version: journey.version,
        visit: entry.visit,
        state: 'due',
        entryEvent: event,
        entryEventId: eventId,
        endedAt: null,
        listening: null,
        seq: 0,
        waitingIn: null,
      });
    }
  }
  const entered = await enterTravellers(deps, job.projectId, entries, receivedAt, stats);
  await recordStats(deps, stats);
  return entered;
}
