import type { CountDeps } from '../events/pending-counts.ts';
import type { Models } from '../models/index.ts';
import type { TargetDevice, TargetProjection } from './target-device.ts';
import type { Platform } from '../schemas/platforms.ts';
import { segmentClause, subscribedDevicesFilter } from '../segments/segment-filter.ts';
import { planDeviceFilter, projectionWith } from '../segments/oversized-filter.ts';
import { platformClause } from './platform-clause.ts';
import { scanAnswerBoundMs } from '../infra/mongo.ts';

export interface TargetQuery {
  /** Resume after this device _id: an interrupted fan-out continues where it stopped. */
  afterId: string | null;
  projection: TargetProjection;
  /** The send has queued nobody yet, so a segment deleted since it was accepted fails it (MissingSegmentsError). */
  everySegment?: boolean;
  /** Only devices of these platforms (CONTRACTS §14 `platforms` and `silent`), selected by the query itself. */
  platforms?: Platform[];
}

/**
 * A send's audience is the union of its segments as they stand when it starts; a segment deleted since the send was
 * accepted would shrink it silently (to nobody when it was the only one), so the send fails instead.
 */
export class MissingSegmentsError extends Error {
  readonly segmentIds: string[];

  constructor(segmentIds: string[]) {
    super(`segment ${segmentIds.map((id) => `"${id}"`).join(', ')} was deleted before the send started`);
    this.segmentIds = segmentIds;
  }
}

/** Streams the subscribed devices of segments in ascending _id order. */
export interface SegmentResolver {
  cursorFor(projectId: string, segmentIds: string[], query: TargetQuery): AsyncIterable<TargetDevice>;
}

/**
 * The union of the segments as ONE query on devices ($or of each segment's clause), read by a cursor in _id order:
 * a device in several segments is one document of the result, so it gets one push, and resuming after an _id
 * neither skips nor repeats anyone. A segment deleted once the send has started contributes nobody to the rest of it.
 */
export function databaseSegmentResolver(deps: CountDeps): SegmentResolver {
  const { models } = deps;
  return {
    async *cursorFor(projectId, segmentIds, query) {
      const segments = await models.Segment.find({ projectId, _id: { $in: segmentIds } }).lean();
      if (query.everySegment) {
        const found = new Set(segments.map((segment) => segment._id));
        const missing = segmentIds.filter((id) => !found.has(id));
        if (missing.length > 0) throw new MissingSegmentsError(missing);
      }
      if (segments.length === 0) return;
      const now = new Date();
      const clauses = await Promise.all(segments.map((segment) => segmentClause(deps, segment, now)));
      const { query: filter, exact } = planDeviceFilter(subscribedDevicesFilter(projectId, clauses));
      const cursorOptions = { batchSize: 1000, socketTimeoutMS: scanAnswerBoundMs(models.Device.db) };
      if (!exact) {
        yield* segmentDevicesQuery(models, filter, query).cursor(cursorOptions);
        return;
      }
      const projection = projectionWith(query.projection, exact.fields);
      for await (const device of segmentDevicesQuery(models, filter, { ...query, projection }).cursor(cursorOptions))
        if (exact.test(device as unknown as Record<string, unknown>)) yield device;
    },
  };
}

/**
 * The query the cursor reads for a filter of segment clauses, on its own so that the query-plan tests explain it as
 * sent.
 */
export function segmentDevicesQuery(models: Models, filter: object, query: TargetQuery) {
  // $and, not a spread: an event condition's clause is itself a filter on _id.
  // A field beside projectId and isSubscribed, not another $and: the filter keeps the shape its indexes serve.
  const narrowed = { ...filter, ...platformClause(query.platforms) };
  const resumed = query.afterId === null ? narrowed : { $and: [narrowed, { _id: { $gt: query.afterId } }] };
  return models.Device.find(resumed, query.projection).sort({ _id: 1 }).lean<TargetDevice[]>();
}
