import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { subjectTypes } from './event.ts';

/**
 * How many events of one type one device or user sent on one UTC day (its own events: links between devices and
 * users are resolved when counting). Written only by the flush of pending counts (src/events/pending-counts.ts).
 */
const eventCounterSchema = new Schema(
  {
    /** counterId(): one document per (project, subject, type, day), found by _id on every MongoDB-wire server. */
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    subjectType: { type: String, enum: subjectTypes, required: true },
    subjectId: { type: String, required: true },
    type: { type: String, required: true },
    day: { type: Date, required: true },
    count: { type: Number, required: true },
    /** The last flush applied to this counter, so a flush that is retried adds nothing twice. */
    lastFlush: { type: Number, required: true },
  },
  { versionKey: false },
);
// Segment evaluation over a whole project: every subject with events of a type in a window.
eventCounterSchema.index({ projectId: 1, type: 1, day: -1 });

export type EventCounterDocument = InferSchemaType<typeof eventCounterSchema>;

export function eventCounterModel(connection: Connection) {
  return connection.model('EventCounter', eventCounterSchema, 'event_counters');
}
