import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { subjectTypes, type EventData } from '../schemas/events.ts';
import type { WithTypedPaths } from './typed-paths.ts';

const eventSchema = new Schema(
  {
    /** `<ingest job id>:<index, 3 digits>`: a retried job cannot store an event twice, and events sort in the order received. */
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    type: { type: String, required: true },
    subjectType: { type: String, enum: subjectTypes, required: true },
    subjectId: { type: String, required: true },
    data: { type: Schema.Types.Mixed, default: () => ({}) },
    receivedAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
// Recent events newest first (optionally by subject and type), and event counts restricted to a few subjects, one
// type and a time window. Which devices and users an event counts for is resolved when reading (subjectsCountingFor),
// so ingest needs no device lookups. _id orders the events of one request.
eventSchema.index({ projectId: 1, receivedAt: -1, _id: -1 });
eventSchema.index({ projectId: 1, type: 1, receivedAt: -1, _id: -1 });
eventSchema.index({ projectId: 1, subjectType: 1, subjectId: 1, receivedAt: -1, _id: -1 });
eventSchema.index({ projectId: 1, subjectType: 1, subjectId: 1, type: 1, receivedAt: -1, _id: -1 });
// The stats of an in-app message. Not partial (only events naming one): the local server never plans a partial index.
eventSchema.index({ projectId: 1, 'data.inAppMessageId': 1, subjectType: 1, type: 1, subjectId: 1 });

export type EventDocument = WithTypedPaths<InferSchemaType<typeof eventSchema>, { data: EventData }>;

export function eventModel(connection: Connection) {
  return connection.model<EventDocument>('Event', eventSchema, 'events');
}
