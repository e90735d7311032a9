import { createHash } from 'node:crypto';
import type { StepOf } from '../../schemas/journey-steps.ts';
import { contentOf } from '../../rendering/message-content.ts';
import { optionsOf } from '../../schemas/message-options.ts';
import { makeNotifications, type NotificationDraft } from '../../notifications/make-notifications.ts';
import { sendTimingOf } from '../../schemas/send-timing.ts';
import { nextOf, type StepContext, type StepRun, type Traveller } from './step-context.ts';

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

/** Whether the step's content or options read the entry event: then travellers with different ones cannot share a push. */
const readsEntryEvent = (step: StepOf<'push'>) => JSON.stringify(step).includes('entry_event');

/** The travellers that can share one notification: same subject type and, when the content reads it, entry event. */
function groupsOf(step: StepOf<'push'>, travellers: Traveller[]): Map<string, Traveller[]> {
  const personal = readsEntryEvent(step);
  const groups = new Map<string, Traveller[]>();
  for (const traveller of travellers) {
    const event = personal ? JSON.stringify(traveller.entryEvent) : '';
    const key = `${traveller.subjectType}\n${event}`;
    const group = groups.get(key);
    if (group) group.push(traveller);
    else groups.set(key, [traveller]);
  }
  return groups;
}

/** The step's content: its template's as it is now (a deleted one sends nothing), or its own. */
async function stepMessage(context: StepContext, step: StepOf<'push'>) {
  if (step.templateId === undefined) return { content: contentOf(step), options: optionsOf(step) };
  const template = await context.deps.models.Template.findOne({
    projectId: context.projectId,
    _id: step.templateId,
  }).lean();
  if (!template) return null;
  const fromTemplate = optionsOf({ buttons: template.buttons, localizations: template.localizations });
  return { content: contentOf(template), options: { ...optionsOf(step), ...fromTemplate } };
}

interface StepPush {
  group: Traveller[];
  draft: NotificationDraft;
}

/**
 * Which notification names each subject: a push's own, stored before, or one of its rests (`<id>-…`), in one read on
 * the `_id` index.
 */
async function namingNotifications(context: StepContext, id: string): Promise<Map<string, string>> {
  const stored = await context.deps.models.Notification.find(
    { _id: { $gte: id, $lt: `${id}.` } },
    { targetIds: 1 },
  ).lean();
  const named = new Map<string, string>();
  for (const notification of stored) for (const subject of notification.targetIds) named.set(subject, notification._id);
  return named;
}

/**
 * The notification each traveller went out in, and the rests still to make. A push stored before (a rerun) may name
 * only some of its travellers: two workers taking one lapsed claim over at once may split it, each part under the
 * claim's runId, and the part that stored it first named only its own. Those neither it nor an earlier rest names
 * go out as a rest of their own, keyed by the push and their subjects, so that no part run again sends twice.
 */
async function sentIn(context: StepContext, pushes: StepPush[], storedBefore: Set<string>) {
  const notificationOf = new Map<string, string>();
  const rests: StepPush[] = [];
  for (const { group, draft } of pushes) {
    const named = storedBefore.has(draft._id) ? await namingNotifications(context, draft._id) : null;
    const unnamed: Traveller[] = [];
    for (const traveller of group) {
      const notificationId = named ? named.get(traveller.subjectId) : draft._id;
      if (notificationId) notificationOf.set(traveller._id, notificationId);
      else unnamed.push(traveller);
    }
    if (unnamed.length === 0) continue;
    const targetIds = unnamed.map((traveller) => traveller.subjectId).sort();
    const rest = {
      group: unnamed,
      draft: { ...draft, _id: `${draft._id}-${digest(targetIds.join('\n'))}`, targetIds },
    };
    for (const traveller of unnamed) notificationOf.set(traveller._id, rest.draft._id);
    rests.push(rest);
  }
  return { notificationOf, rests };
}

/**
 * The travellers at the step in this batch go out as one notification per group (at most a claim's subjects), through
 * the send path: its fan-out into delivery batches of 500, options, quiet hours, cap, history and collapse id. Its id
 * is the batch's runId and the group, so a rerun of the batch stores and queues nothing twice (nor leaves a traveller
 * out: sentIn). One notification, one outcome: the batch moves on in one range update of its claim.
 */
export const runPush: StepRun<'push'> = async (context, step, travellers) => {
  const message = await stepMessage(context, step);
  const next = nextOf(context.version, step);
  if (!message) return new Map(travellers.map((t) => [t._id, { next, outcome: { skipped: 'template_deleted' } }]));
  const pushes = [...groupsOf(step, travellers)].map(
    ([key, group]): StepPush => ({
      group,
      draft: {
        _id: `jp-${context.runId}-${digest(`${context.journeyId}\n${context.version.version}\n${step.id}\n${key}`)}`,
        projectId: context.projectId,
        targetType: group[0]!.subjectType === 'device' ? ('device' as const) : ('userId' as const),
        targetIds: group.map((traveller) => traveller.subjectId),
        templateId: step.templateId ?? null,
        content: message.content,
        options: message.options,
        data: step.data ?? {},
        sendAt: null,
        timing: sendTimingOf(step),
        journey: {
          journeyId: context.journeyId,
          journeyStepId: step.id,
          entryEvent: readsEntryEvent(step) ? group[0]!.entryEvent : null,
        },
      },
    }),
  );
  const storedBefore = await makeNotifications(
    context.deps,
    pushes.map(({ draft }) => draft),
  );
  const { notificationOf, rests } = await sentIn(context, pushes, storedBefore);
  if (rests.length > 0)
    await makeNotifications(
      context.deps,
      rests.map(({ draft }) => draft),
    );
  return new Map(
    travellers.map((traveller) => [
      traveller._id,
      { next, outcome: { notificationId: notificationOf.get(traveller._id)! } },
    ]),
  );
};
