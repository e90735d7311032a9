import { Schema, type Connection } from 'mongoose';

export const historyRetentionSeconds = 30 * 24 * 60 * 60;

/**
 * One history entry per notification and device, keyed by both: the _id index refuses a repeat, so no separate
 * unique index costs every insert (a fifth of an insert on FerretDB), and looking up which devices of a batch already
 * have history is an _id lookup, the only one FerretDB 1.x serves from an index.
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
    notificationId: { type: String, required: true },
    notification: {
      id: String,
      createdAt: Date,
      title: String,
      body: String,
      url: String,
      imageUrl: String,
    },
    sentAt: { type: Date, required: true },
  },
  { versionKey: false },
);
historySchema.index({ projectId: 1, deviceId: 1, sentAt: -1 });


/** The TTL index is created apart from the others, because some MongoDB-wire servers refuse it (see ensure-indexes). */
export const historyTtlIndex = { key: { sentAt: 1 }, expireAfterSeconds: historyRetentionSeconds } as const;

export function historyModel(connection: Connection) {
  return connection.model('History', historySchema, 'history');
}
