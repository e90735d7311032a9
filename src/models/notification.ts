import { Schema, type Connection, type InferSchemaType } from 'mongoose';

export const notificationStatuses = ['queued', 'sending', 'completed', 'failed', 'canceled'] as const;
export const targetTypes = ['segment', 'userId', 'device'] as const;

const notificationSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    status: { type: String, enum: notificationStatuses, default: 'queued' },
    targetType: { type: String, enum: targetTypes, required: true },
    targetIds: { type: [String], required: true },
    templateId: { type: String, default: null },
    title: { type: String, default: null },
    body: { type: String, default: null },
    url: { type: String, default: null },
    imageUrl: { type: String, default: null },
    data: { type: Schema.Types.Mixed, default: () => ({}) },
    sendAt: { type: Date, default: null },
    stats: {
      targeted: { type: Number, default: 0 },
      sent: { type: Number, default: 0 },
      failed: { type: Number, default: 0 },
      unsubscribed: { type: Number, default: 0 },
    },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
notificationSchema.index({ projectId: 1, createdAt: -1 });

export type NotificationDocument = InferSchemaType<typeof notificationSchema>;

export function notificationModel(connection: Connection) {
  return connection.model('Notification', notificationSchema, 'notifications');
}
