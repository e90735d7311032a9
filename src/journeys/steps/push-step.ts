import { createHash } from 'node:crypto';
import type { StepOf } from '../../schemas/journey-steps.ts';
import { contentOf } from '../../rendering/message-content.ts';
import { optionsOf } from '../../schemas/message-options.ts';
import { makeNotifications, type NotificationDraft } from '../../notifications/make-notifications.ts';
import { sendTimingOf } from '../../schemas/send-timing.ts';
import { nextOf, type StepContext, type StepResult, type StepRun, type Traveller } from './step-context.ts';

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
 * The travellers of the pushes stored before whom the stored notification does not name, as pushes of their own. A
 * lapsed claim taken over by two workers at once may be split between them, each part under the claim's runId: the
 * part that stored the notification first named only its own travellers. Keyed by the subjects it names, a rest's
 * notification is made once however often its part runs again.
 */
async function restsOf(context: StepContext, pushes: StepPush[], storedBefore: Set<string>): Promise<StepPush[]> {
  if (storedBefore.size === 0) return [];
  const stored = await context.deps.models.Notification.find(
    { _id: { $in: [...storedBefore] } },
    { targetIds: 1 },
  ).lean();
  const named = new Map(stored.map((notification) => [notification._id, new Set(notification.targetIds)]));
  return pushes.flatMap(({ group, draft }) => {
    const targets = named.get(draft._id);
    const rest = targets ? group.filter((traveller) => !targets.has(traveller.subjectId)) : [];
    if (rest.length === 0) return [];
    const targetIds = rest.map((traveller) => traveller.subjectId);
    return [
      { group: rest, draft: { ...draft, _id: `${draft._id}-${digest(targetIds.sort().join('\n'))}`, targetIds } },
    ];
  });
}

/**
 * The travellers at the step in this batch go out as one notification per group (at most a claim's subjects), through
 * the send path: its fan-out into delivery batches of 500, options, quiet hours, cap, history and collapse id. Its id
 * is the batch's runId and the group, so a rerun of the batch stores and queues nothing twice (restsOf: nor leaves a
 * traveller out). One notification, one outcome: the batch moves on in one range update of its claim.
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
  const rests = await restsOf(context, pushes, storedBefore);
  if (rests.length > 0)
    await makeNotifications(
      context.deps,
      rests.map(({ draft }) => draft),
    );
  const results = new Map<string, StepResult>();
  for (const { group, draft } of [...pushes, ...rests])
    for (const traveller of group) results.set(traveller._id, { next, outcome: { notificationId: draft._id } });
  return results;
};
