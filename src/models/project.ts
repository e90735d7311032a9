import { Schema, type Connection } from 'mongoose';
import { planNames } from '../plans/plans.ts';

const sealedSchema = new Schema({ iv: String, tag: String, data: String }, { _id: false });

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
  },
  { timestamps: true, versionKey: false },
);
projectSchema.index({ serverKeyHash: 1 }, { unique: true });
projectSchema.index({ clientKeyHash: 1 }, { unique: true });


export function projectModel(connection: Connection) {
  return connection.model('Project', projectSchema, 'projects');
}
