import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { JourneyView } from '../schemas/journey.ts';
import type { TravellerView } from '../schemas/journey-traveller.ts';
import type { SubjectType } from '../schemas/events.ts';
import { deliveryStats } from '../notifications/notification-view.ts';
import { notFound } from '../errors.ts';
import { readStats } from './journey-stats.ts';
import type { StoredJourney } from './active-journeys.ts';
import { toJourneyView } from './journey-store.ts';

type DetailDeps = Pick<Deps, 'models' | 'redis' | 'config'>;

/** A push step's counts: sent, failed and clicked, and its conversions of every event (CONTRACTS §19). */
export type PushStepCounts = { sent: number; failed: number; clicked: number; conversions: number };

/** Each push step's counts, summed over the notifications its batches went out in. */
async function pushStepCounts(deps: DetailDeps, projectId: string, journeyId: string) {
  const notifications = await deps.models.Notification.find(
    { journeyId, journeyStepId: { $ne: null } },
    { journeyStepId: 1 },
  ).lean();
  const stats = await deliveryStats(
    deps,
    projectId,
    notifications.map((notification) => notification._id),
  );
  const counts = new Map<string, PushStepCounts>();
  for (const notification of notifications) {
    const step = counts.get(notification.journeyStepId!) ?? { sent: 0, failed: 0, clicked: 0, conversions: 0 };
    const own = stats.get(notification._id)!;
    const converted = Object.values(own.conversions.total).reduce((sum, event) => sum + event.count, 0);
    counts.set(notification.journeyStepId!, {
      sent: step.sent + own.sent,
      failed: step.failed + own.failed,
      clicked: step.clicked + own.clicked,
      conversions: step.conversions + converted,
    });
  }
  return counts;
}

/** GET of one journey: its definition with its counts (CONTRACTS §18). */
export async function journeyDetailView(deps: DetailDeps, journey: StoredJourney): Promise<JourneyView> {
  const pushCounts = await pushStepCounts(deps, journey.projectId, journey._id);
  return { ...toJourneyView(journey), stats: await readStats(deps, journey._id, journey.steps, pushCounts) };
}

/** A subject's last 100 visits of a journey, newest first, on the {projectId, subjectType, subjectId, journeyId, visit} index. */
export const subjectVisitsQuery = (
  models: Models,
  projectId: string,
  journeyId: string,
  subjectType: SubjectType,
  subjectId: string,
) =>
  models.JourneyTraveller.find({ projectId, subjectType, subjectId, journeyId }).sort({ visit: -1 }).limit(100).lean();

/** Every visit of the subject, newest first: entry, steps passed with outcomes, where it waits, how it left. */
export async function travellerVisits(
  deps: DetailDeps,
  projectId: string,
  journeyId: string,
  subjectType: SubjectType,
  subjectId: string,
): Promise<TravellerView[]> {
  if (!(await deps.models.Journey.exists({ _id: journeyId, projectId })))
    throw notFound(`No journey "${journeyId}" in this project.`);
  const visits = await subjectVisitsQuery(deps.models, projectId, journeyId, subjectType, subjectId);
  return visits.map((visit) => ({
    visit: visit.visit,
    version: visit.version,
    enteredAt: visit.enteredAt.toISOString(),
    entryEvent: visit.entryEvent,
    passed: visit.passed.map((step) => ({ stepId: step.stepId, at: step.at.toISOString(), outcome: step.outcome })),
    state: visit.state === 'done' ? 'left' : visit.state === 'held' ? 'paused' : 'travelling',
    ...(visit.state !== 'done' && {
      at: visit.waitingIn ?? visit.at ?? undefined,
      ...(visit.dueAt && { until: visit.dueAt.toISOString() }),
    }),
    ...(visit.endedAt && { leftAt: visit.endedAt.toISOString(), leftBecause: visit.endReason! }),
  }));
}
