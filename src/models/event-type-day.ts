import { Schema, type Connection } from 'mongoose';

/**
 * How many events of one type a project received on one UTC day, under JSON of [projectId, type, day]: the event
 * catalog's counts and last day seen. Gathered in Redis as events arrive (eventTypeCounts) and added by each flush in
 * one upsert per type and day stamped with the flush's number, so no writer meets another on it.
 */
const eventTypeDaySchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    type: { type: String, required: true },
    day: { type: Date, required: true },
    count: { type: Number, default: 0 },
    /** The number of the last flush written into it: a flush written again adds nothing twice. */
    flush: { type: Number },
  },
  { versionKey: false },
);
// The catalog's window of days: at most one document per type and day.
eventTypeDaySchema.index({ projectId: 1, day: -1 });

export function eventTypeDayModel(connection: Connection) {
  return connection.model('EventTypeDay', eventTypeDaySchema, 'event_type_days');
}
