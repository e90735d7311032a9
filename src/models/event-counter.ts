import { Schema, type Connection } from 'mongoose';
import { subjectTypes } from '../schemas/events.ts';

/**
 * How many events of one type one device or user sent on one UTC day, as gathered by one flush of the pending counts
 * (flushCounts); a day's count is the sum of its documents. Insert-only with the flush in the _id,
 * so a flush retried after MongoDB took its write but before Redis forgot the counts inserts nothing twice, where an
 * $inc upsert per (subject, type, day) would count them again; an insert is also the cheapest write.
 */
const eventCounterSchema = new Schema(
  {
    /** JSON of [projectId, flush, subjectType, subjectId, type, day]: a retried flush inserts nothing twice. */
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    subjectType: { type: String, enum: subjectTypes, required: true },
    subjectId: { type: String, required: true },
    type: { type: String, required: true },
    day: { type: Date, required: true },
    count: { type: Number, required: true },
    flush: { type: Number, required: true },
  },
  { versionKey: false },
);
// Counting for a few subjects over a window, and segment evaluation over every subject of a project.
eventCounterSchema.index({ projectId: 1, subjectType: 1, subjectId: 1, type: 1, day: -1 });
eventCounterSchema.index({ projectId: 1, type: 1, day: -1 });

export function eventCounterModel(connection: Connection) {
  return connection.model('EventCounter', eventCounterSchema, 'event_counters');
}
