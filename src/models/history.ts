import { Schema, type Connection } from 'mongoose';

export const historyRetentionSeconds = 30 * 24 * 60 * 60;

const historySchema = new Schema(
  {
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
historySchema.index({ notificationId: 1, deviceId: 1 }, { unique: true });
historySchema.index({ projectId: 1, deviceId: 1, sentAt: -1 });


/** The TTL index is created apart from the others, because some MongoDB-wire servers refuse it (see ensure-indexes). */
export const historyTtlIndex = { key: { sentAt: 1 }, expireAfterSeconds: historyRetentionSeconds } as const;

export function historyModel(connection: Connection) {
  return connection.model('History', historySchema, 'history');
}
