import { Schema, type Connection, type InferSchemaType } from 'mongoose';

export const platforms = ['android', 'ios', 'web'] as const;

const deviceSchema = new Schema(
  {
    projectId: { type: String, required: true },
    deviceId: { type: String, required: true },
    platform: { type: String, enum: platforms, required: true },
    pushToken: { type: String, required: true },
    userId: { type: String, default: null },
    tags: { type: Schema.Types.Mixed, default: () => ({}) },
    isSubscribed: { type: Boolean, default: true },
    unsubscribedAt: { type: Date, default: null },
    unsubscribeReason: { type: String, default: null },
    /** The token the gateway rejected: registering any other token subscribes the device again. */
    rejectedPushToken: { type: String, default: null },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
deviceSchema.index({ projectId: 1, deviceId: 1 }, { unique: true });
deviceSchema.index({ projectId: 1, userId: 1 });

export type DeviceDocument = InferSchemaType<typeof deviceSchema>;

export function deviceModel(connection: Connection) {
  return connection.model('Device', deviceSchema, 'devices');
}
