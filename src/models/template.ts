import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import type { Localization, MessageButton } from '../schemas/message-options.ts';
import type { WithTypedPaths } from './typed-paths.ts';

const templateSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, required: true },
    title: { type: String, default: null },
    body: { type: String, required: true },
    url: { type: String, default: null },
    imageUrl: { type: String, default: null },
    /** The content options (CONTRACTS §14), null when not set. */
    buttons: { type: Schema.Types.Mixed, default: null },
    localizations: { type: Schema.Types.Mixed, default: null },
  },
  { timestamps: true, versionKey: false },
);
// The _id orders the templates of one millisecond, so that a page boundary between them skips none.
templateSchema.index({ projectId: 1, createdAt: -1, _id: -1 });

export type TemplateDocument = WithTypedPaths<
  InferSchemaType<typeof templateSchema>,
  { buttons?: MessageButton[] | null; localizations?: Record<string, Localization> | null }
>;

export function templateModel(connection: Connection) {
  return connection.model('Template', templateSchema, 'templates');
}
