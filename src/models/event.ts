import { Schema, type Connection, type InferSchemaType } from 'mongoose';

export const subjectTypes = ['device', 'user'] as const;

const eventSchema = new Schema(
  {
    /** `<ingest job id>:<index, 3 digits>`: a retried job cannot store an event twice, and events sort in the order received. */
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    type: { type: String, required: true },
    subjectType: { type: String, enum: subjectTypes, required: true },
    subjectId: { type: String, required: true },
    /** The user the event counts for: the subject of a user event, the device's user for a device event. */
    userId: { type: String, default: null },
    /** The devices the event counts for, resolved at ingest: the subject device, or every device of the subject user. */
    deviceIds: { type: [String], default: () => [] },
    data: { type: Schema.Types.Mixed, default: () => ({}) },
    receivedAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
// Recent events (newest first, optionally by user, device or type) and event counts with data conditions,
// each restricted to one subject, one type and a time window. _id orders the events of one request.
eventSchema.index({ projectId: 1, receivedAt: -1, _id: -1 });
eventSchema.index({ projectId: 1, type: 1, receivedAt: -1, _id: -1 });
eventSchema.index({ projectId: 1, userId: 1, receivedAt: -1, _id: -1 });
eventSchema.index({ projectId: 1, deviceIds: 1, receivedAt: -1, _id: -1 });
eventSchema.index({ projectId: 1, userId: 1, type: 1, receivedAt: -1, _id: -1 });
eventSchema.index({ projectId: 1, deviceIds: 1, type: 1, receivedAt: -1, _id: -1 });

export type EventDocument = InferSchemaType<typeof eventSchema>;

export function eventModel(connection: Connection) {
  return connection.model('Event', eventSchema, 'events');
}
