import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import type { WithTypedPaths } from './typed-paths.ts';
import type { JourneyDefinition, JourneyStatus } from '../schemas/journey.ts';

/** The fields of a journey definition (CONTRACTS §18), as the journey and each of its versions store them. */
const definitionFields = {
  name: { type: String, required: true },
  entry: { type: Schema.Types.Mixed, required: true },
  audience: { type: Schema.Types.Mixed, default: null },
  reentry: { type: Schema.Types.Mixed, default: 'afterExit' },
  exit: { type: [Schema.Types.Mixed], default: () => [] },
  steps: { type: [Schema.Types.Mixed], default: () => [] },
};

const journeySchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    ...definitionFields,
    status: { type: String, required: true },
    /** Raised by every replace; travellers keep the version they entered. */
    version: { type: Number, required: true },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
// The _id orders the journeys of one millisecond, so that a page boundary between them skips none.
journeySchema.index({ projectId: 1, createdAt: -1, _id: -1 });
journeySchema.index({ projectId: 1, status: 1 });

type TypedDefinition = {
  entry: JourneyDefinition['entry'];
  audience: JourneyDefinition['audience'] | null;
  reentry: NonNullable<JourneyDefinition['reentry']>;
  exit: NonNullable<JourneyDefinition['exit']>;
  steps: JourneyDefinition['steps'];
};

export type JourneyDocument = WithTypedPaths<
  InferSchemaType<typeof journeySchema>,
  TypedDefinition & { status: JourneyStatus }
>;

/** Every version of a journey, kept while travellers may be on it: `_id` is `<journeyId>:<version>`. */
const journeyVersionSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    journeyId: { type: String, required: true },
    version: { type: Number, required: true },
    ...definitionFields,
  },
  { timestamps: true, versionKey: false, minimize: false },
);
journeyVersionSchema.index({ journeyId: 1, version: 1 });
export type JourneyVersionDocument = WithTypedPaths<InferSchemaType<typeof journeyVersionSchema>, TypedDefinition>;

export const journeyVersionId = (journeyId: string, version: number) => `${journeyId}:${version}`;

export function journeyModel(connection: Connection) {
  return connection.model<JourneyDocument>('Journey', journeySchema, 'journeys');
}

export function journeyVersionModel(connection: Connection) {
  return connection.model<JourneyVersionDocument>('JourneyVersion', journeyVersionSchema, 'journey_versions');
}
