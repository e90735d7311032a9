import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import type { Tags } from '../schemas/tags.ts';
import type { WithTypedPaths } from './typed-paths.ts';
import { platforms } from '../schemas/platforms.ts';

/**
 * The natural key doubles as _id: a device read or write is one lookup in the one index every collection has, and a
 * project's devices are contiguous in it, in deviceId order, which the fan-out cursor (sorted by _id) and a ranged
 * shard key use. It is also what keeps a device id unique within its project (project ids are UUIDs, so the ':' is
 * unambiguous): no index on {projectId, deviceId} is needed, and none is built, since every index costs each write.
 */
export function deviceKey(projectId: string, deviceId: string): string {
  return `${projectId}:${deviceId}`;
}

const deviceSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    deviceId: { type: String, required: true },
    platform: { type: String, enum: platforms, required: true },
    /** An FCM or APNs token, or a Web Push subscription's endpoint; null for a browser not subscribed to push. */
    pushToken: { type: String, default: null },
    /** Web Push devices only: the subscription's keys, which the payload is encrypted for (RFC 8291). */
    webPushKeys: { type: new Schema({ p256dh: String, auth: String }, { _id: false }), default: null },
    userId: { type: String, default: null },
    tags: { type: Schema.Types.Mixed, default: () => ({}) },
    /** BCP 47, as Intl writes it: picks the message's localization (CONTRACTS §14). */
    language: { type: String, default: null },
    /** IANA name: the device's local time for local-time sends and quiet hours (CONTRACTS §15). */
    timezone: { type: String, default: null },
    isSubscribed: { type: Boolean, default: true },
    unsubscribedAt: { type: Date, default: null },
    unsubscribeReason: { type: String, default: null },
    /** The token the gateway rejected: registering any other token subscribes the device again. */
    rejectedPushToken: { type: String, default: null },
    /**
     * When the device last reported @iam_displayed for each in-app message, by message id (recordDisplays): what
     * frequency reads, with the rest of the device, in the SDK route's one read.
     */
    lastInAppDisplays: { type: Schema.Types.Mixed, default: undefined },
    /** Bumped by every write: a writer updates only the revision it read (changeDevice). */
    revision: { type: Number, default: 0 },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
/**
 * A user's devices; with the platform after the user, a send to a user narrowed to some platforms (CONTRACTS §14)
 * reads only the devices of those platforms, and every read of a user's devices still has the same prefix.
 */
deviceSchema.index({ projectId: 1, userId: 1, platform: 1 });
/** The console's newest devices. */
deviceSchema.index({ projectId: 1, createdAt: -1, _id: -1 });
/** The project's subscribed devices now (a prefix of it), counted for the overview's baseline. */
deviceSchema.index({ projectId: 1, isSubscribed: 1, unsubscribedAt: -1 });
/** Serves segment tag conditions on any tag key (a compound wildcard index, MongoDB 7+). */
export const deviceTagsIndexKey = { projectId: 1, 'tags.$**': 1 } as const;
deviceSchema.index(deviceTagsIndexKey);

export type DeviceDocument = WithTypedPaths<
  InferSchemaType<typeof deviceSchema>,
  { tags: Tags; lastInAppDisplays?: Partial<Record<string, Date>> | null }
>;

export function deviceModel(connection: Connection) {
  return connection.model<DeviceDocument>('Device', deviceSchema, 'devices');
}
