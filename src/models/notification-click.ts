import { Schema, type Connection } from 'mongoose';

/**
 * One document per device that clicked a notification, under `<notificationId>:<deviceId>`: a device clicking twice
 * writes the same document, so the count of a notification's documents is its distinct clicking devices
 * (CONTRACTS §6), read as an _id range in the index every collection has.
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

export function notificationClickModel(connection: Connection) {
  return connection.model('NotificationClick', notificationClickSchema, 'notification_clicks');
}
