import type { TargetDevice, TargetProjection } from './target-device.ts';

export interface TargetQuery {
  /** Resume after this device _id (hex): an interrupted fan-out continues where it stopped. */
  afterId: string | null;
  projection: TargetProjection;
}

/** Streams the subscribed devices of segments in ascending _id order. */
export interface SegmentResolver {
  cursorFor(projectId: string, segmentIds: string[], query: TargetQuery): AsyncIterable<TargetDevice>;
}

/** Until segment conditions are evaluated, a known segment resolves to no devices. */
export const emptySegmentResolver: SegmentResolver = {
  async *cursorFor() {},
};
