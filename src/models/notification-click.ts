import { Schema, type Connection } from 'mongoose';

/**
 * One document per device that clicked a notification, under `<notificationId>:<deviceId>`: a device clicking twice
 * writes the same document, so the count of a notification's documents is its distinct clicking devices
 * (CONTRACTS §6), counted on the notificationId index: an equality, which every server plans on an index, where an
 * _id range is a collection scan on the local server (docs/architecture.md#local-server-quirks).
 */
const notificationClickSchema = new Schema(
  {
    _id: { type: String, required: true },
    notificationId: { type: String, required: true },
    deviceId: { type: String, required: true },
    clickedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

notificationClickSchema.index({ notificationId: 1 });
// A device's clicks, for its erasure (eraseDevice).
notificationClickSchema.index({ deviceId: 1 });

export function notificationClickModel(connection: Connection) {
  return connection.model('NotificationClick', notificationClickSchema, 'notification_clicks');
}
