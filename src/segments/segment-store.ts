import { randomUUID } from 'node:crypto';
import type { Models } from '../models/index.ts';
import type { SegmentDocument } from '../models/segment.ts';
import type { SegmentBody, SegmentDefinition, SegmentPreview, SegmentView } from '../schemas/segment.ts';
import { notFound } from '../http/api-error.ts';
import { parseSegmentConditions } from './segment-conditions.ts';
import { segmentClause, subscribedDevicesFilter } from './segment-filter.ts';
import type { CountDeps } from '../events/pending-counts.ts';

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

  list(projectId: string, limit: number): Promise<StoredSegment[]> {
    return this.models.Segment.find({ projectId }).sort({ createdAt: -1 }).limit(limit).lean<StoredSegment[]>();
  }

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
   * sort every match by _id, while an unsorted limit stops after a few documents.
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

  private async previewOf(segment: Parameters<typeof segmentClause>[1]): Promise<SegmentPreview> {
    const filter = subscribedDevicesFilter(segment.projectId, [await segmentClause(this.counts, segment)]);
    const [count, sample] = await Promise.all([
      this.models.Device.countDocuments(filter),
      this.models.Device.find(filter, { _id: 0, deviceId: 1 }).limit(previewSampleSize).lean(),
    ]);
    return { count, sample: sample.map((device) => device.deviceId).sort() };
  }
}
