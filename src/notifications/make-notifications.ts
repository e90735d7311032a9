import type { Deps } from '../deps.ts';
import type { MessageContent } from '../rendering/message-content.ts';
import type { EntryEvent } from '../schemas/events.ts';
import { messageOptionsField, type MessageOptions } from '../schemas/message-options.ts';
import type { NotificationData, TargetType } from '../schemas/notification.ts';
import type { SendTiming } from '../schemas/send-timing.ts';
import { refusedRepeats } from '../infra/ignore-duplicate-keys.ts';
import { customerKeyedDocument } from '../models/customer-keyed-insert.ts';
import { enqueueSends } from '../queues/send.ts';
import type { StoredExperiment, StoredVariant } from '../schemas/experiment.ts';

/** A notification as every way of sending makes it: a send request, a journey's push step. */
export interface NotificationDraft {
  /** Repeatable by whoever may make it again (an Idempotency-Key, a replayed ingest job): nothing is made twice. */
  _id: string;
  projectId: string;
  targetType: TargetType;
  targetIds: string[];
  templateId: string | null;
  /** Copied, a template's too: later edits of the template change no notification made. */
  content: MessageContent;
  /** The options that were set (CONTRACTS §14); none stores none. */
  options: MessageOptions;
  data: NotificationData;
  sendAt: Date | null;
  timing: SendTiming;
  /**
   * A journey's send: the journey, the push step whose batch it is, and the event bound as Liquid's entry_event (none
   * when the step's content does not read it and the batch's travellers entered on different events).
   */
  journey?: { journeyId: string; journeyStepId?: string; entryEvent: EntryEvent | null };
  /** An experiment's variants and settings (CONTRACTS §19). */
  variants?: StoredVariant[];
  experiment?: StoredExperiment;
}

/**
 * Stores the notifications and queues their send jobs, each under its notification's id, in one insert and one queue
 * add. One stored before (the caller's retry) is not written again, and its send job is queued again only while it is
 * still queued: a job past that may have run and been removed, and queued again it would send a second time. Answers
 * the ids of the drafts stored before: what those notifications name is as stored then, which the caller reads.
 *
 * `withdrawUnqueued`: for a caller whose retry makes new ids (a send without an Idempotency-Key), notifications whose
 * job could not be queued are deleted before the error is thrown, so that none stays behind, queued forever; unless
 * its job was added after all (only the answer was lost) and a worker has taken it: that one is being sent, and when
 * every one is, the add counts as done (an error would have the client send them again).
 */
export async function makeNotifications(
  deps: Pick<Deps, 'models' | 'queues'>,
  drafts: NotificationDraft[],
  { now = Date.now(), withdrawUnqueued = false } = {},
): Promise<Set<string>> {
  const { Notification } = deps.models;
  const documents = await Promise.all(
    drafts.map((draft) => customerKeyedDocument(Notification, storedFields(draft), ['data', 'entryEvent'])),
  );
  const repeats = new Set(
    await refusedRepeats(documents.length, () =>
      Notification.collection.insertMany(documents as never[], { ordered: false }),
    ),
  );
  const made = drafts.filter((_, index) => !repeats.has(index));
  const stillQueued = await queuedOnes(
    deps,
    drafts.filter((_, index) => repeats.has(index)),
  );
  try {
    await enqueueSends(deps, [...made, ...stillQueued], now);
  } catch (error) {
    if (!withdrawUnqueued || stillQueued.length > 0 || (await withdrawUnstarted(deps, made)) > 0) throw error;
  }
  return new Set(drafts.filter((_, index) => repeats.has(index)).map((draft) => draft._id));
}

function storedFields({ content, options, journey, ...draft }: NotificationDraft) {
  return { ...draft, ...content, ...messageOptionsField(options), ...journey };
}

async function queuedOnes(
  deps: Pick<Deps, 'models' | 'queues'>,
  drafts: NotificationDraft[],
): Promise<NotificationDraft[]> {
  if (drafts.length === 0) return [];
  const ids = drafts.map((draft) => draft._id);
  const queued = await deps.models.Notification.find({ _id: { $in: ids }, status: 'queued' }, { _id: 1 }).lean();
  const queuedIds = new Set(queued.map((notification) => notification._id));
  return drafts.filter((draft) => queuedIds.has(draft._id));
}

/** Deletes the notifications whose send job is not in the queue, or was still waiting there and is removed: how many. */
async function withdrawUnstarted(deps: Pick<Deps, 'models' | 'queues'>, drafts: NotificationDraft[]): Promise<number> {
  let withdrawn = 0;
  for (const { _id } of drafts) {
    if (await sendJobStarted(deps, _id)) continue;
    await deps.models.Notification.deleteOne({ _id }).catch(() => undefined);
    withdrawn += 1;
  }
  return withdrawn;
}

/**
 * Whether the send job of a failed add is in the queue after all, past the reach of a removal: a worker holds it or has
 * run it. One still waiting is removed. Redis out of reach answers no: the job, if it was added, then finds its
 * notification deleted when it runs, and sends nothing.
 */
async function sendJobStarted(deps: Pick<Deps, 'models' | 'queues'>, id: string): Promise<boolean> {
  try {
    const state = await deps.queues.send.getJobState(id);
    if (state === 'unknown') return false;
    if (state === 'waiting' || state === 'delayed' || state === 'prioritized')
      return (await deps.queues.send.remove(id)) === 0;
    return true;
  } catch {
    return false;
  }
}
