import { Schema, type Connection, type InferSchemaType } from 'mongoose';

export const subjectTypes = ['device', 'user'] as const;

const eventSchema = new Schema(
  {
    projectId: { type: String, required: true },
    type: { type: String, required: true },
    subjectType: { type: String, enum: subjectTypes, required: true },
    subjectId: { type: String, required: true },
    deviceId: { type: String, default: null },
    userId: { type: String, default: null },
    data: { type: Schema.Types.Mixed, default: () => ({}) },
    receivedAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
eventSchema.index({ projectId: 1, receivedAt: -1 });
eventSchema.index({ projectId: 1, userId: 1, receivedAt: -1 });
eventSchema.index({ projectId: 1, deviceId: 1, receivedAt: -1 });
eventSchema.index({ projectId: 1, type: 1, receivedAt: -1 });

export type EventDocument = InferSchemaType<typeof eventSchema>;

export function eventModel(connection: Connection) {
  return connection.model('Event', eventSchema, 'events');
}
