import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { EventIngestJob } from '../queues/event-ingest.ts';
import type { IngestedEvent } from '../schemas/events.ts';
import { toStoredData } from '../conditions/event-data.ts';
import { matchesDataConditions } from '../conditions/match-data.ts';
import { contentOf, type MessageContent } from '../rendering/message-content.ts';
import { makeNotifications, type NotificationDraft } from '../notifications/make-notifications.ts';
import { optionsOf, type MessageOptions } from '../schemas/message-options.ts';
import type { ActiveJourneys } from './active-journeys.ts';
import { sendTimingOf } from '../schemas/send-timing.ts';
import type { StoredJourney } from './journey-store.ts';

/** The active journeys are cached by the event-ingest worker from job to job. */
export type TriggerDeps = Pick<Deps, 'models' | 'queues'> & { activeJourneys: ActiveJourneys };

/** Deterministic: the journey and the event (ingest job id and position), so a replayed job sends nothing twice. */
export const journeySendId = (journeyId: string, jobId: string, index: number) => `j-${journeyId}-${jobId}-${index}`;

/** What a journey sends: its content, with its template's content options (CONTRACTS §14) beside its own options. */
interface JourneyMessage {
  content: MessageContent;
  options: MessageOptions;
}

async function journeyContents(
  models: Models,
  projectId: string,
  journeys: StoredJourney[],
): Promise<Map<string, JourneyMessage>> {
  const templateIds = [
    ...new Set(journeys.map((journey) => journey.templateId).filter((id) => typeof id === 'string')),
  ];
  const templates =
    templateIds.length === 0 ? [] : await models.Template.find({ projectId, _id: { $in: templateIds } }).lean();
  const byId = new Map(
    templates.map((template) => [
      template._id,
      {
        content: contentOf(template),
        options: optionsOf({ buttons: template.buttons, localizations: template.localizations }),
      },
    ]),
  );
  const contents = new Map<string, JourneyMessage>();
  for (const journey of journeys) {
    // A template is read when the journey fires, so editing it changes later messages; a deleted one sends nothing.
    const own = optionsOf(journey.options ?? {});
    const fromTemplate = journey.templateId
      ? byId.get(journey.templateId)
      : { content: contentOf(journey), options: {} };
    if (fromTemplate)
      contents.set(journey._id, { content: fromTemplate.content, options: { ...own, ...fromTemplate.options } });
  }
  return contents;
}

function matchingJourneys(journeys: StoredJourney[], event: IngestedEvent): StoredJourney[] {
  const candidates = journeys.filter((journey) => journey.trigger.event === event.type);
  if (candidates.length === 0) return [];
  const data = toStoredData(event.data);
  return candidates.filter((journey) => matchesDataConditions(data, journey.trigger.where));
}

/**
 * Starts the active journeys the job's events trigger: one notification per (journey, event) to the event's subject
 * (the device, or every subscribed device of the user), sent after the journey's delay by the ordinary send and
 * deliver pipeline, with the event bound as entry_event. They are made together (makeNotifications) under
 * deterministic ids, so a retried ingest job neither stores nor sends anything twice.
 */
export async function triggerJourneys(deps: TriggerDeps, jobId: string, job: EventIngestJob): Promise<number> {
  const journeys = await deps.activeJourneys.forProject(job.projectId);
  if (journeys.length === 0) return 0;
  const triggered = job.events.flatMap((event, index) =>
    matchingJourneys(journeys, event).map((journey) => ({ journey, event, index })),
  );
  if (triggered.length === 0) return 0;
  const contents = await journeyContents(deps.models, job.projectId, [
    ...new Set(triggered.map(({ journey }) => journey)),
  ]);
  const receivedAt = Date.parse(job.receivedAt);
  const drafts: NotificationDraft[] = triggered
    .filter(({ journey }) => contents.has(journey._id))
    .map(({ journey, event, index }) => ({
      _id: journeySendId(journey._id, jobId, index),
      projectId: job.projectId,
      targetType: event.subjectType === 'device' ? ('device' as const) : ('userId' as const),
      targetIds: [event.subjectId],
      templateId: journey.templateId ?? null,
      ...contents.get(journey._id)!,
      data: {},
      sendAt: new Date(receivedAt + (journey.delaySeconds ?? 0) * 1000),
      timing: sendTimingOf({
        ignoreQuietHours: journey.ignoreQuietHours ?? false,
        ignoreFrequencyCap: journey.ignoreFrequencyCap ?? false,
      }),
      journey: { journeyId: journey._id, entryEvent: { type: event.type, data: event.data } },
    }));
  if (drafts.length === 0) return 0;
  await makeNotifications(deps, drafts);
  return drafts.length;
}
