import { Schema, type Connection, type InferSchemaType } from 'mongoose';

const segmentSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, required: true },
    match: { type: String, enum: ['all', 'any'], required: true },
    conditions: { type: [Schema.Types.Mixed], default: () => [] },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
segmentSchema.index({ projectId: 1, createdAt: -1 });

export type SegmentDocument = InferSchemaType<typeof segmentSchema>;

export function segmentModel(connection: Connection) {
  return connection.model('Segment', segmentSchema, 'segments');
}
