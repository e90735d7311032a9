import type { Models } from '../models/index.ts';
import { deviceKey } from '../models/device.ts';
import { addToDay, dayKey } from '../overview/daily-counts.ts';
import { microBatchedWrites } from '../infra/micro-batcher.ts';
import { weakMemoize } from '../infra/weak-memoize.ts';
import type { Rejection } from '../queues/deliver.ts';

interface ProjectRejections {
  projectId: string;
  rejections: Rejection[];
  at: Date;
}

/** Callers whose rejections go in one round of writes at most: as many as a deliver worker has batches in flight. */
const maxCallersPerRound = 16;

/**
 * Unsubscribes, in one updateMany per project, reason and UTC day, the devices still subscribed that hold a token a
 * gateway rejected: one that registered a new token meanwhile stays subscribed. The filter checks that on the document
 * as the server writes it, and the update bumps the revision, so a registration that read the device before this
 * write retries on what it wrote (changeDevice). A device holding the rejected token of another device of the same
 * round is unsubscribed too: the token is dead whoever holds it. Each group's devices leave its day of subscribed
 * devices as soon as they are written, so that a later group failing (and every caller retrying, which then matches
 * none of them) loses none of the count. The time kept is the group's earliest refusal.
 */
async function unsubscribeRound(models: Models, callers: ProjectRejections[]): Promise<void> {
  const groups = new Map<string, ProjectRejections & { reason: string }>();
  for (const { projectId, rejections, at } of callers)
    for (const rejection of rejections) {
      const key = JSON.stringify([projectId, rejection.reason, dayKey(at)]);
      const group = groups.get(key) ?? { projectId, reason: rejection.reason, rejections: [], at };
      group.rejections.push(rejection);
      if (at < group.at) group.at = at;
      groups.set(key, group);
    }
  for (const { projectId, reason, rejections, at } of groups.values()) {
    const written = await models.Device.updateMany(
      {
        _id: { $in: rejections.map((rejection) => deviceKey(projectId, rejection.deviceId)) },
        pushToken: { $in: rejections.map((rejection) => rejection.pushToken) },
        isSubscribed: true,
      },
      [
        {
          $set: {
            isSubscribed: false,
            unsubscribedAt: at,
            // The gateway's words, which a pipeline would read as a field path if they began with $.
            unsubscribeReason: { $literal: reason },
            rejectedPushToken: '$pushToken',
            // A device stored before devices had a revision starts at 1, as $inc would.
            revision: { $add: [{ $ifNull: ['$revision', 0] }, 1] },
          },
        },
      ],
      { updatePipeline: true },
    );
    await addToDay(models, projectId, { subscribed: -written.modifiedCount }, at);
  }
}

const rounds = weakMemoize((models: Models) =>
  microBatchedWrites((callers: ProjectRejections[]) => unsubscribeRound(models, callers), maxCallersPerRound),
);

/**
 * The gateway said these tokens are dead (CONTRACTS §9): their devices are unsubscribed, with those of the process's
 * other calls that end together (a MicroBatcher of unsubscribeRound).
 */
export async function markUnsubscribed(
  models: Models,
  projectId: string,
  rejections: Rejection[],
  at: Date,
): Promise<void> {
  if (rejections.length > 0) await rounds(models)({ projectId, rejections, at });
}
