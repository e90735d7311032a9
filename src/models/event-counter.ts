import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { subjectTypes } from './event.ts';

/**
 * How many events of one type counted for one device or user on one UTC day. Event counts over a window read
 * at most one document per day instead of the events themselves (src/events/count-events.ts).
 */
const eventCounterSchema = new Schema(
  {
    projectId: { type: String, required: true },
    subjectType: { type: String, enum: subjectTypes, required: true },
    subjectId: { type: String, required: true },
    type: { type: String, required: true },
    day: { type: Date, required: true },
    count: { type: Number, required: true },
  },
  { versionKey: false },
);
eventCounterSchema.index({ projectId: 1, subjectType: 1, subjectId: 1, type: 1, day: -1 }, { unique: true });
// Segment evaluation over a whole project: every subject with events of a type in a window.
eventCounterSchema.index({ projectId: 1, type: 1, day: -1 });

export type EventCounterDocument = InferSchemaType<typeof eventCounterSchema>;

export function eventCounterModel(connection: Connection) {
  return connection.model('EventCounter', eventCounterSchema, 'event_counters');
}
