import { Schema, type Connection } from 'mongoose';

/**
 * The running outcome counts of one delivery batch, under the batch's job id, written with $set from the totals the
 * job saves with its progress. An $inc on the notification would be simpler to read but not safe to repeat: a run
 * killed after the $inc and before saving its progress would count the same pushes again when the job is retried or
 * replayed. A notification's stats are the sum over its batches (one indexed read of at most targeted/500 documents).
 */
const deliveryResultSchema = new Schema(
  {
    _id: { type: String, required: true },
    notificationId: { type: String, required: true },
    sent: { type: Number, default: 0 },
    failed: { type: Number, default: 0 },
    unsubscribed: { type: Number, default: 0 },
    capped: { type: Number, default: 0 },
    /** A local-time send's part, or one split off it: the instant of its zone (its notification's localTimeZones). */
    localTimeAt: { type: Number, default: undefined },
    /** An experiment's batch: the variant its devices got (CONTRACTS §19). */
    variant: { type: String, default: undefined },
  },
  { timestamps: true, versionKey: false },
);
deliveryResultSchema.index({ notificationId: 1 });

export function deliveryResultModel(connection: Connection) {
  return connection.model('DeliveryResult', deliveryResultSchema, 'delivery_results');
}
