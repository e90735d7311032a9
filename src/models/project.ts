import { Schema, type Connection } from 'mongoose';
import { planNames } from '../plans/plans.ts';

const sealedSchema = new Schema({ iv: String, tag: String, data: String }, { _id: false });
/** The project's VAPID key pair (RFC 8292): the public key is handed to browsers, the private one is sealed. */
const vapidSchema = new Schema({ publicKey: String, privateKey: sealedSchema }, { _id: false });

const projectSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    plan: { type: String, enum: planNames, required: true },
    serverKeyHash: { type: String, required: true },
    clientKeyHash: { type: String, required: true },
    /** Messages per second the delivery workers may send for this project; null is unlimited. */
    deliveryRatePerSecond: { type: Number, default: null },
    credentials: {
      fcm: { type: sealedSchema, default: null },
      apns: { type: sealedSchema, default: null },
    },
    vapid: { type: vapidSchema, default: null },
    /** Origins whose pages may call the SDK endpoints (CORS); empty allows every origin. */
    allowedOrigins: { type: [String], default: () => [] },
    /** When pushes may reach devices (CONTRACTS §15): the zone of devices without one, quiet hours, frequency cap. */
    defaultTimezone: { type: String, default: 'UTC' },
    quietHours: { type: Schema.Types.Mixed, default: null },
    frequencyCap: { type: Schema.Types.Mixed, default: null },
    /** The events counted as conversions of its pushes (CONTRACTS §19), with their defaults filled in. */
    conversions: { type: Schema.Types.Mixed, default: () => [] },
  },
  { timestamps: true, versionKey: false },
);
projectSchema.index({ serverKeyHash: 1 }, { unique: true });
projectSchema.index({ clientKeyHash: 1 }, { unique: true });

export function projectModel(connection: Connection) {
  return connection.model('Project', projectSchema, 'projects');
}
