import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import type { JourneyView } from '../schemas/journey.ts';
import type { WithTypedPaths } from './typed-paths.ts';
import type { MessageOptions } from '../schemas/message-options.ts';

const journeySchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, required: true },
    trigger: {
      event: { type: String, required: true },
      where: { type: [Schema.Types.Mixed], default: () => [] },
    },
    delaySeconds: { type: Number, default: 0 },
    templateId: { type: String, default: null },
    title: { type: String, default: null },
    body: { type: String, default: null },
    url: { type: String, default: null },
    imageUrl: { type: String, default: null },
    active: { type: Boolean, default: true },
    /** Its sends skip the project's quiet hours or frequency cap (CONTRACTS §15); the cap still counts them. */
    ignoreQuietHours: { type: Boolean, default: false },
    ignoreFrequencyCap: { type: Boolean, default: false },
    /** The message options that were set (CONTRACTS §14). */
    options: { type: Schema.Types.Mixed, default: undefined },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
// The _id orders the journeys of one millisecond, so that a page boundary between them skips none.
journeySchema.index({ projectId: 1, createdAt: -1, _id: -1 });
journeySchema.index({ projectId: 1, active: 1 });

export type JourneyDocument = WithTypedPaths<
  InferSchemaType<typeof journeySchema>,
  { trigger: JourneyView['trigger']; options?: MessageOptions }
>;

export function journeyModel(connection: Connection) {
  return connection.model<JourneyDocument>('Journey', journeySchema, 'journeys');
}
