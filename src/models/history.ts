import { Schema, type Connection } from 'mongoose';

export const historyRetentionSeconds = 30 * 24 * 60 * 60;

/**
 * One history entry per notification and device, keyed by both: the _id index refuses a repeat, so no separate
 * unique index costs every insert, and looking up which devices of a batch already have history is an _id lookup.
 */
export function historyKey(notificationId: string, deviceId: string): string {
  return `${notificationId}:${deviceId}`;
}

const historySchema = new Schema(
  {
    _id: {
      type: String,
      default(this: { notificationId: string; deviceId: string }) {
        return historyKey(this.notificationId, this.deviceId);
      },
    },
    projectId: { type: String, required: true },
    deviceId: { type: String, required: true },
    /** For the delivery log, whose sent entries these are; absent on entries written before it was kept. */
    platform: { type: String },
    notificationId: { type: String, required: true },
    notification: {
      id: String,
      createdAt: Date,
      title: String,
      body: String,
      url: String,
      imageUrl: String,
      /** The experiment variant the device got (CONTRACTS §19). */
      variant: String,
    },
    sentAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// The _id orders the entries of one millisecond, so that a page boundary between them skips none.
historySchema.index({ projectId: 1, deviceId: 1, sentAt: -1, _id: -1 });
/** A notification's entries in device order: the sent entries of its delivery log. */
historySchema.index({ notificationId: 1, _id: 1 });
historySchema.index({ sentAt: 1 }, { expireAfterSeconds: historyRetentionSeconds });

/** The TTL monitor runs about once a minute, so reads cut at the window themselves. */
export function historyCutoff(now: Date): Date {
  return new Date(now.getTime() - historyRetentionSeconds * 1000);
}

export function historyModel(connection: Connection) {
  return connection.model('History', historySchema, 'history');
}
