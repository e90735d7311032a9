import type { TargetDevice } from './target-cursor.ts';

/**
 * Streams the subscribed devices of segments in ascending _id order, starting after `afterId` so that an
 * interrupted fan-out resumes where it stopped.
 */
export interface SegmentResolver {
  cursorFor(projectId: string, segmentIds: string[], afterId: string | null): AsyncIterable<TargetDevice>;
}

/** Until segment conditions are evaluated, a known segment resolves to no devices. */
export const emptySegmentResolver: SegmentResolver = {
  async *cursorFor() {},
};
