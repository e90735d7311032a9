import { Schema, type Connection } from 'mongoose';

/**
 * A project's counts for one UTC day, under `<projectId>:<YYYY-MM-DD>`, gathered in Redis where each thing happens and
 * added by each flush ($inc upserts): pushes sent that day, devices that clicked that day, and the change that day in
 * the devices subscribed.
 * The overview reads a window of them (at most one document a day), never the devices, history or clicks themselves.
 * One more document per project, the baseline (day 1970-01-01), holds the devices subscribed before the counts
 * began, so that the changes summed up to a day give the devices subscribed at its end.
 */
const dailyCountSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    day: { type: Date, required: true },
    sent: { type: Number, default: 0 },
    clicked: { type: Number, default: 0 },
    subscribed: { type: Number, default: 0 },
    /** Conversions credited to a push that day (CONTRACTS §19). */
    conversions: { type: Number, default: 0 },
    /** The number of the last flush of gathered counts written into it (dailyCounts): none wrote it twice. */
    flush: { type: Number },
    /** The last step of each writer that adds once per step (addToDayOnce), by writer. */
    addedBy: { type: Schema.Types.Mixed, default: undefined },
  },
  { versionKey: false },
);
// The overview's window of days, and the sum of the subscribed changes before it.
dailyCountSchema.index({ projectId: 1, day: -1 });

export function dailyCountModel(connection: Connection) {
  return connection.model('DailyCount', dailyCountSchema, 'daily_counts');
}
