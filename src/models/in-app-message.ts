import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { inAppLayouts, inAppStatuses, type InAppButtonView, type InAppFrequency } from '../schemas/in-app-message.ts';
import type { WithTypedPaths } from './typed-paths.ts';

const inAppMessageSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, required: true },
    status: { type: String, enum: inAppStatuses, required: true },
    layout: { type: String, enum: inAppLayouts, required: true },
    title: { type: String, default: null },
    body: { type: String, required: true },
    imageUrl: { type: String, default: null },
    buttons: { type: [Schema.Types.Mixed], default: () => [] },
    trigger: { type: Schema.Types.Mixed, required: true },
    segmentId: { type: String, default: null },
    startAt: { type: Date, default: null },
    endAt: { type: Date, default: null },
    frequency: { type: Schema.Types.Mixed, required: true },
    priority: { type: Number, default: 0 },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
// The _id orders the messages of one millisecond, so that a page boundary between them skips none.
inAppMessageSchema.index({ projectId: 1, createdAt: -1, _id: -1 });
// The SDK route reads a project's active messages, however many devices ask.
inAppMessageSchema.index({ projectId: 1, status: 1, priority: -1 });

export type InAppMessageDocument = WithTypedPaths<
  InferSchemaType<typeof inAppMessageSchema>,
  {
    buttons: InAppButtonView[];
    trigger: { event: string } | { on: 'session_start' };
    frequency: InAppFrequency;
  }
>;

/** A message as read back: the document with its id and the times mongoose keeps. */
export type StoredInAppMessage = InAppMessageDocument & { _id: string; createdAt: Date; updatedAt: Date };

export function inAppMessageModel(connection: Connection) {
  return connection.model<InAppMessageDocument>('InAppMessage', inAppMessageSchema, 'in_app_messages');
}
