import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { segmentMatches, type SegmentCondition } from '../schemas/segment.ts';
import type { WithTypedPaths } from './typed-paths.ts';

const segmentSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, required: true },
    match: { type: String, enum: segmentMatches, required: true },
    conditions: { type: [Schema.Types.Mixed], default: () => [] },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
// The _id orders the segments of one millisecond, so that a page boundary between them skips none.
segmentSchema.index({ projectId: 1, createdAt: -1, _id: -1 });

export type SegmentDocument = WithTypedPaths<InferSchemaType<typeof segmentSchema>, { conditions: SegmentCondition[] }>;

export function segmentModel(connection: Connection) {
  return connection.model<SegmentDocument>('Segment', segmentSchema, 'segments');
}
