import { Schema, type Connection, type InferSchemaType } from 'mongoose';

const templateSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, required: true },
    title: { type: String, default: null },
    body: { type: String, required: true },
    url: { type: String, default: null },
    imageUrl: { type: String, default: null },
  },
  { timestamps: true, versionKey: false },
);
// The _id orders the templates of one millisecond, so that a page boundary between them skips none.
templateSchema.index({ projectId: 1, createdAt: -1, _id: -1 });

export type TemplateDocument = InferSchemaType<typeof templateSchema>;

export function templateModel(connection: Connection) {
  return connection.model('Template', templateSchema, 'templates');
}
