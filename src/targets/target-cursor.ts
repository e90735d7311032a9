import type { Models } from '../models/index.ts';
import { deviceKey } from '../models/device.ts';
import type { TargetType } from '../schemas/notification.ts';
import type { SegmentResolver, TargetQuery } from './segment-resolver.ts';
import type { TargetDevice } from './target-device.ts';
import { platformClause } from './platform-clause.ts';
import { mergedById } from './merged-by-id.ts';
import { inChunks, maxIdsPerIn } from '../infra/chunks.ts';

export interface Targets {
  projectId: string;
  targetType: TargetType;
  targetIds: string[];
}

/**
 * The queries of a send to users or to devices (at most 100 ids; 500 from a journey's push step), each in _id order. A
 * query names only what its index holds, as equalities then at most one operator, the shape every server plans on a
 * compound index (the local one plans no other: docs/architecture.md#local-server-quirks); subscription and the resume
 * point are checked as the devices stream by. The platforms of CONTRACTS §14 are in the query, so no device of another
 * platform is read: beside the devices' _ids, or on {projectId, userId, platform} with one query per user, as two
 * operators (users and platforms) would not fit that shape; MongoDB serves each alike. Ids go in `$in`s of at most
 * 100: the local server's `$in` costs more than in proportion to its values (500 _ids: three times five `$in`s of
 * 100). On its own so that the query-plan tests explain them as sent.
 */
export function listedTargetsQueries(models: Models, targets: Targets, query: TargetQuery) {
  const { projectId, targetIds } = targets;
  const platforms = platformClause(query.platforms);
  const filters =
    targets.targetType === 'device'
      ? [...inChunks(targetIds.map((deviceId) => deviceKey(projectId, deviceId)).sort(), maxIdsPerIn)].map((chunk) => ({
          _id: { $in: chunk },
          ...platforms,
        }))
      : query.platforms === undefined
        ? [...inChunks(targetIds, maxIdsPerIn)].map((chunk) => ({ projectId, userId: { $in: chunk } }))
        : targetIds.map((userId) => ({ projectId, userId, ...platforms }));
  return filters.map((filter) =>
    models.Device.find(filter, { ...query.projection, isSubscribed: 1 })
      .sort({ _id: 1 })
      .lean<Array<TargetDevice & { isSubscribed?: boolean }>>(),
  );
}

async function* listedTargets(models: Models, targets: Targets, query: TargetQuery): AsyncIterable<TargetDevice> {
  const cursors = listedTargetsQueries(models, targets, query).map((find) => find.cursor({ batchSize: 1000 }));
  try {
    for await (const { isSubscribed, ...device } of mergedById(cursors))
      if (isSubscribed !== false && (query.afterId === null || device._id > query.afterId)) yield device;
  } finally {
    // A fan-out that stops early (a cancelation) leaves no cursor open on the server.
    await Promise.all(cursors.map((cursor) => cursor.close()));
  }
}

/** Subscribed target devices in _id order, streamed by cursors so that memory stays flat for any audience size. */
export function targetCursor(
  models: Models,
  segments: SegmentResolver,
  targets: Targets,
  query: TargetQuery,
): AsyncIterable<TargetDevice> {
  if (targets.targetType === 'segment') return segments.cursorFor(targets.projectId, targets.targetIds, query);
  return listedTargets(models, targets, query);
}
