import { randomUUID } from 'node:crypto';
import type { Models } from '../models/index.ts';
import type { SegmentDocument } from '../models/segment.ts';
import type { SegmentBody, SegmentDefinition, SegmentPreview, SegmentView } from '../schemas/segment.ts';
import { notFound } from '../errors.ts';
import { parseSegmentConditions } from './segment-conditions.ts';
import { segmentClause, subscribedDevicesFilter } from './segment-filter.ts';
import { planDeviceFilter, projectionWith, type DeviceFilter, type DeviceFilterPlan } from './oversized-filter.ts';
import type { CountDeps } from '../events/pending-counts.ts';
import { newestFirstListing, newestFirst } from '../models/newest-first-list.ts';

type StoredSegment = SegmentDocument & { _id: string; createdAt: Date; updatedAt: Date };

export const previewSampleSize = 10;

const missing = (segmentId: string) => notFound(`No segment "${segmentId}" in this project.`);

export function toSegmentView(segment: StoredSegment): SegmentView {
  return {
    id: segment._id,
    name: segment.name,
    match: segment.match,
    conditions: segment.conditions,
    createdAt: segment.createdAt.toISOString(),
    updatedAt: segment.updatedAt.toISOString(),
  };
}

/** Segment definitions are checked when written, so a send or preview never meets a malformed one. */
export class SegmentStore {
  private readonly models: Models;
  private readonly counts: CountDeps;

  constructor(counts: CountDeps) {
    this.models = counts.models;
    this.counts = counts;
  }

  private storedFields(input: SegmentBody) {
    return { name: input.name, match: input.match, conditions: parseSegmentConditions(input.conditions) };
  }

  async create(projectId: string, input: SegmentBody): Promise<StoredSegment> {
    const document = await this.models.Segment.create({ _id: randomUUID(), projectId, ...this.storedFields(input) });
    return document.toObject();
  }

  private readonly listing = newestFirstListing<StoredSegment>((filter, count) =>
    this.models.Segment.find(filter).sort(newestFirst).limit(count).lean<StoredSegment[]>(),
  );
  readonly list = this.listing.list;
  readonly boundary = this.listing.boundary;

  async find(projectId: string, segmentId: string): Promise<StoredSegment> {
    const segment = await this.models.Segment.findOne({ _id: segmentId, projectId }).lean<StoredSegment>();
    if (!segment) throw missing(segmentId);
    return segment;
  }

  async replace(projectId: string, segmentId: string, input: SegmentBody): Promise<StoredSegment> {
    const segment = await this.models.Segment.findOneAndUpdate(
      { _id: segmentId, projectId },
      { $set: this.storedFields(input) },
      { returnDocument: 'after' },
    ).lean<StoredSegment>();
    if (!segment) throw missing(segmentId);
    return segment;
  }

  async delete(projectId: string, segmentId: string): Promise<void> {
    const result = await this.models.Segment.deleteOne({ _id: segmentId, projectId });
    if (result.deletedCount === 0) throw missing(segmentId);
  }

  /**
   * The number of subscribed devices the segment holds now, and a few of their ids (sorted). The sample is the first
   * matches the server finds, not the first in _id order: a filter served by the tag index would otherwise have to
   * sort every match by _id.
   */
  async preview(projectId: string, segmentId: string): Promise<SegmentPreview> {
    return this.previewOf(await this.find(projectId, segmentId));
  }

  /** The same for a definition not saved yet, checked as a write would check it. */
  previewDefinition(projectId: string, definition: SegmentDefinition): Promise<SegmentPreview> {
    return this.previewOf({
      projectId,
      match: definition.match,
      conditions: parseSegmentConditions(definition.conditions),
    });
  }

  /**
   * One pass over the matches for both the count and the sample, not a count beside a limited find: a server that
   * gathers every match of a find before its limit would read the segment twice (the local one does:
   * docs/architecture.md#local-server-quirks); on MongoDB the $match is served by the same index either way.
   */
  private async previewOf(segment: Parameters<typeof segmentClause>[1]): Promise<SegmentPreview> {
    const plan = planDeviceFilter(
      subscribedDevicesFilter(segment.projectId, [await segmentClause(this.counts, segment)]),
    );
    if (plan.exact) return this.previewTested(plan.query, plan.exact);
    const filter = plan.query;
    const [result] = await this.models.Device.aggregate<{
      count: Array<{ devices: number }>;
      sample: Array<{ deviceId: string }>;
    }>([
      { $match: filter },
      {
        $facet: {
          count: [{ $count: 'devices' }],
          sample: [{ $limit: previewSampleSize }, { $project: { _id: 0, deviceId: 1 } }],
        },
      },
    ]);
    return {
      count: result?.count[0]?.devices ?? 0,
      sample: (result?.sample ?? []).map((device) => device.deviceId).sort(),
    };
  }

  /** For a filter whose device lists MongoDB could not take (planDeviceFilter): counted as read. */
  private async previewTested(
    query: DeviceFilter,
    exact: NonNullable<DeviceFilterPlan['exact']>,
  ): Promise<SegmentPreview> {
    let count = 0;
    const sample: string[] = [];
    const projection = projectionWith({ deviceId: 1 }, exact.fields);
    const devices = this.models.Device.find(query, projection).lean<Array<{ deviceId: string }>>();
    for await (const device of devices.cursor({ batchSize: 1000 })) {
      if (!exact.test(device)) continue;
      count += 1;
      if (sample.length < previewSampleSize) sample.push(device.deviceId);
    }
    return { count, sample: sample.sort() };
  }
}
