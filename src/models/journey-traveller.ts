import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import type { WithTypedPaths } from './typed-paths.ts';
import type { EntryEvent, SubjectType } from '../schemas/events.ts';
import type { EndReason } from '../schemas/journey-traveller.ts';

/**
 * due: its step `at` runs at `dueAt` (a wait is the next step's dueAt; a waitForEvent waits at its own step with
 * `listening` set, and its dueAt is the timeout); a step runner that takes it holds it in Redis
 * (src/journeys/traveller-claims.ts) and writes the record once, by the step's move. running: held by its record,
 * under `runId` until `dueAt`, the lease, after which another worker takes it with the same runId: a traveller whose
 * next step was due at once (chained by the move before it), or whose step failed (its lease lapses at the retry
 * time). held: its journey is paused. done: it left (`endReason`).
 */
export const travellerStates = ['due', 'running', 'held', 'done'] as const;
export type TravellerState = (typeof travellerStates)[number];

export interface PassedStep {
  stepId: string;
  at: Date;
  /** What the step did: the split path, the branch result, the notification a push went out in, the event awaited. */
  outcome: Record<string, unknown>;
}

const travellerSchema = new Schema(
  {
    /** `<journeyId>:<subjectType>:<subjectId>:<visit>`: one record per visit, written before any step runs. */
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    journeyId: { type: String, required: true },
    version: { type: Number, required: true },
    subjectType: { type: String, required: true },
    subjectId: { type: String, required: true },
    visit: { type: Number, required: true },
    entryEvent: { type: Schema.Types.Mixed, required: true },
    /** The ingested event that entered it, so that a replayed ingest job enters nobody again. */
    entryEventId: { type: String, required: true },
    enteredAt: { type: Date, required: true },
    state: { type: String, enum: travellerStates, required: true },
    at: { type: String, default: null },
    /** Steps run in this visit: a step's run is keyed by (traveller, visit, seq), so none runs twice. */
    seq: { type: Number, default: 0 },
    /** Failed attempts of the step `at` so far: each retried after a delay, the last one ends the visit. */
    failures: { type: Number, default: 0 },
    dueAt: { type: Date, default: null },
    /** The step run's key while running: kept when a lapsed claim is taken over. */
    runId: { type: String, default: null },
    /** The worker batch holding it by its record (running). */
    claim: { type: String, default: null },
    /** The step run's write that last moved it on: a batch whose write failed reads back which travellers it moved. */
    movedBy: { type: String, default: null },
    /** While a waitForEvent step waits: its id, the event it waits for, and since when events count. */
    listening: { type: Schema.Types.Mixed, default: null },
    /** The wait or waitForEvent step it waits in, for the step's `waiting` count and the lookup. */
    waitingIn: { type: String, default: null },
    passed: { type: [Schema.Types.Mixed], default: () => [] },
    endedAt: { type: Date, default: null },
    endReason: { type: String, default: null },
  },
  { versionKey: false, minimize: false },
);
// The steps due, oldest first, and a claim of them up to the last one read: the step runner's queries.
travellerSchema.index({ state: 1, dueAt: 1, _id: 1 });
// An event's subject: its visits of every journey (entry, exit rules, waitForEvent), and the traveller lookup.
travellerSchema.index({ projectId: 1, subjectType: 1, subjectId: 1, journeyId: 1, visit: -1 });
// Pause, resume and delete of one journey; a batch's claimed travellers.
travellerSchema.index({ journeyId: 1, state: 1 });
travellerSchema.index({ claim: 1 });

export interface Listening {
  stepId: string;
  event: string;
  since: Date;
}

export type TravellerDocument = WithTypedPaths<
  InferSchemaType<typeof travellerSchema>,
  {
    subjectType: SubjectType;
    entryEvent: EntryEvent;
    state: TravellerState;
    endReason: EndReason | null;
    listening: Listening | null;
    passed: PassedStep[];
  }
>;

export const travellerId = (journeyId: string, subjectType: string, subjectId: string, visit: number) =>
  `${journeyId}:${subjectType}:${subjectId}:${visit}`;

export function journeyTravellerModel(connection: Connection) {
  return connection.model<TravellerDocument>('JourneyTraveller', travellerSchema, 'journey_travellers');
}
