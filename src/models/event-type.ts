import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { eventTypeSources } from '../schemas/events.ts';

/** The project's catalog of event types (spec §6, "integrated events"). */
const eventTypeSchema = new Schema(
  {
    projectId: { type: String, required: true },
    type: { type: String, required: true },
    source: { type: String, enum: eventTypeSources, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
eventTypeSchema.index({ projectId: 1, type: 1 }, { unique: true });

export type EventTypeDocument = InferSchemaType<typeof eventTypeSchema>;

export function eventTypeModel(connection: Connection) {
  return connection.model('EventType', eventTypeSchema, 'event_types');
}
