import { Schema, type Connection } from 'mongoose';

/**
 * The running outcome counts of one delivery batch, under the batch's job id. Only that batch's job writes its
 * document (a job runs in one worker at a time), so the counts stay exact on servers that lose concurrent updates
 * of one document; a notification's stats are the sum over its batches.
 */
const deliveryResultSchema = new Schema(
  {
    _id: { type: String, required: true },
    notificationId: { type: String, required: true },
    sent: { type: Number, default: 0 },
    failed: { type: Number, default: 0 },
    unsubscribed: { type: Number, default: 0 },
  },
  { timestamps: true, versionKey: false },
);
deliveryResultSchema.index({ notificationId: 1 });


export function deliveryResultModel(connection: Connection) {
  return connection.model('DeliveryResult', deliveryResultSchema, 'delivery_results');
}
