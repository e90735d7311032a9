import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { notificationStatuses, targetTypes, type NotificationData } from '../schemas/notification.ts';
import type { EntryEvent } from '../schemas/events.ts';
import type { SendTiming } from '../schemas/send-timing.ts';
import type { MessageOptions } from '../schemas/message-options.ts';
import type { WithTypedPaths } from './typed-paths.ts';
import type { StoredExperiment, StoredVariant } from '../schemas/experiment.ts';

const notificationSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    status: { type: String, enum: notificationStatuses, default: 'queued' },
    targetType: { type: String, enum: targetTypes, required: true },
    targetIds: { type: [String], required: true },
    templateId: { type: String, default: null },
    title: { type: String, default: null },
    body: { type: String, default: null },
    url: { type: String, default: null },
    imageUrl: { type: String, default: null },
    data: { type: Schema.Types.Mixed, default: () => ({}) },
    sendAt: { type: Date, default: null },
    /** CONTRACTS §15, set only when given: the send's timing (localTime, throttlePerMinute) and its opt-outs. */
    timing: { type: Schema.Types.Mixed, default: null },
    /** The message options that were set (CONTRACTS §14), as the request gave them. */
    options: { type: Schema.Types.Mixed, default: undefined },
    /**
     * Written only by the notification's send job. Sent, failed and unsubscribed counts live in one delivery-result
     * document per batch instead (the DeliveryResult model), so that a retried or replayed batch cannot count twice.
     */
    stats: { targeted: { type: Number, default: 0 } },
    /**
     * A local-time send's zones, written by its send job with its targeted count: each instant its parts wait for and
     * the devices queued for it. Whether a zone is sent is read from its parts' delivery results.
     */
    localTimeZones: { type: [{ _id: false, at: Number, devices: Number }], default: undefined },
    /** An experiment's winner sent at local time (CONTRACTS §19): its zones, which the view shows in the test's place. */
    winnerZones: { type: [{ _id: false, at: Number, devices: Number }], default: undefined },
    completedAt: { type: Date, default: null },
    /** Set for a journey's send: the journey, and the event that triggered it (Liquid entry_event). */
    journeyId: { type: String, default: null },
    /** A journey push step's batch: the step whose stats it counts on (CONTRACTS §18). */
    journeyStepId: { type: String, default: null },
    entryEvent: { type: Schema.Types.Mixed, default: null },
    /** An experiment's variants, its settings and decision (CONTRACTS §19); devices queued per variant. */
    variants: { type: Schema.Types.Mixed, default: undefined },
    experiment: { type: Schema.Types.Mixed, default: undefined },
    variantTargeted: { type: Schema.Types.Mixed, default: undefined },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
// The list (GET .../notifications) leaves out journey push steps' batches: null is the rest, a send's.
notificationSchema.index({ projectId: 1, journeyStepId: 1, createdAt: -1, _id: -1 });
// The pending sends of a journey, canceled when it is deactivated or deleted.
notificationSchema.index({ journeyId: 1, status: 1 });

export type NotificationDocument = WithTypedPaths<
  InferSchemaType<typeof notificationSchema>,
  {
    data: NotificationData;
    entryEvent: EntryEvent | null;
    timing: SendTiming | null;
    options?: MessageOptions;
    variants?: StoredVariant[];
    experiment?: StoredExperiment;
    variantTargeted?: Record<string, number>;
  }
>;

export function notificationModel(connection: Connection) {
  return connection.model<NotificationDocument>('Notification', notificationSchema, 'notifications');
}
