import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/** Attempts are for looking into a failing endpoint, not an archive: kept three days. */
export const webhookAttemptRetentionSeconds = 3 * 24 * 60 * 60;

const webhookAttemptSchema = new Schema(
  {
    endpointId: { type: String, required: true },
    webhookId: { type: String, required: true },
    type: { type: String, required: true },
    status: { type: Number, default: null },
    error: { type: String, default: null },
    durationMs: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
webhookAttemptSchema.index({ endpointId: 1, at: -1 });
webhookAttemptSchema.index({ at: 1 }, { expireAfterSeconds: webhookAttemptRetentionSeconds });

export type WebhookAttemptDocument = InferSchemaType<typeof webhookAttemptSchema>;

export function webhookAttemptModel(connection: Connection) {
  return connection.model('WebhookAttempt', webhookAttemptSchema, 'webhook_attempts');
}
