import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { deliveryOutcomes } from '../schemas/delivery-log.ts';
import { historyRetentionSeconds } from './history.ts';

/**
 * One entry per notification and device, keyed by both: a rerun that writes a call's outcomes again is refused by
 * the _id index, and within a notification the keys are in device order, by which a log pages (`after`).
 */
export const deliveryLogKey = (notificationId: string, deviceId: string) => `${notificationId}:${deviceId}`;

const deliveryLogSchema = new Schema(
  {
    _id: { type: String, required: true },
    notificationId: { type: String, required: true },
    deviceId: { type: String, required: true },
    platform: { type: String, required: true },
    outcome: { type: String, enum: deliveryOutcomes, required: true },
    reason: { type: String },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
deliveryLogSchema.index({ notificationId: 1, _id: 1 });
deliveryLogSchema.index({ notificationId: 1, outcome: 1, _id: 1 });
deliveryLogSchema.index({ at: 1 }, { expireAfterSeconds: historyRetentionSeconds });

export type DeliveryLogDocument = InferSchemaType<typeof deliveryLogSchema>;

export function deliveryLogModel(connection: Connection) {
  return connection.model('DeliveryLog', deliveryLogSchema, 'delivery_log');
}
