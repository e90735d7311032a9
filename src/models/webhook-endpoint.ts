import { Schema, type Connection, type InferSchemaType } from 'mongoose';

const sealedSchema = new Schema({ iv: String, tag: String, data: String }, { _id: false });

const webhookEndpointSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    url: { type: String, required: true },
    events: { type: [String], required: true },
    enabled: { type: Boolean, required: true },
    /** Set when the service disabled it; null when enabled or disabled by the customer. */
    disabledReason: { type: String, default: null },
    disabledAt: { type: Date, default: null },
    /** The signing secret, sealed with CREDENTIALS_KEY: it signs every call, and is shown only at creation. */
    secret: { type: sealedSchema, required: true },
    /** The first failure since the last success: an endpoint failing for the retry window is disabled. */
    failingSince: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
// The _id orders the endpoints of one millisecond, so that a page boundary between them skips none.
webhookEndpointSchema.index({ projectId: 1, createdAt: -1, _id: -1 });
// The project's enabled endpoints, which the publishers of events read (through a short cache).
webhookEndpointSchema.index({ projectId: 1, enabled: 1 });

export type WebhookEndpointDocument = InferSchemaType<typeof webhookEndpointSchema>;

export function webhookEndpointModel(connection: Connection) {
  return connection.model('WebhookEndpoint', webhookEndpointSchema, 'webhook_endpoints');
}
