import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { deviceImportFormats, deviceImportStatuses, type LineError } from '../schemas/device-import.ts';
import type { WithTypedPaths } from './typed-paths.ts';

/** Where an import's reading stands in its file: the byte after the last row read, and that row's line. */
const positionSchema = new Schema(
  { bytes: { type: Number, default: 0 }, line: { type: Number, default: 0 } },
  { _id: false },
);

const lineErrorSchema = new Schema({ line: Number, message: String }, { _id: false });

/** What a batch adds to the import once applied: written before its devices, so a rerun adds it once (applyBatch). */
const batchSchema = new Schema(
  {
    from: positionSchema,
    to: positionSchema,
    rows: Number,
    created: Number,
    updated: Number,
    failed: Number,
    subscribed: Number,
    errors: [lineErrorSchema],
    at: Date,
  },
  { _id: false, suppressReservedKeysWarning: true },
);

/**
 * A device import (CONTRACTS §20): its file in GridFS (fileId), its counts so far, its first 100 line errors, and the
 * checkpoint a worker resumes from, advanced with each applied batch.
 */
const deviceImportSchema = new Schema(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    fileId: { type: Schema.Types.ObjectId, required: true },
    format: { type: String, enum: deviceImportFormats, required: true },
    bytes: { type: Number, required: true },
    status: { type: String, enum: deviceImportStatuses, default: 'queued' },
    /** A CSV file's header row, read once, so that a resumed run can start reading past it. */
    columns: { type: [String], default: undefined },
    checkpoint: { type: positionSchema, default: () => ({}) },
    pending: { type: batchSchema, default: null },
    rows: { type: Number, default: 0 },
    created: { type: Number, default: 0 },
    updated: { type: Number, default: 0 },
    failed: { type: Number, default: 0 },
    errors: { type: [lineErrorSchema], default: [] },
    /** Why the whole import failed (a file that is not CSV or NDJSON at all); line errors are in errors. */
    reason: { type: String, default: null },
  },
  { timestamps: true, versionKey: false, suppressReservedKeysWarning: true },
);
/** The console's recent imports of a project. */
deviceImportSchema.index({ projectId: 1, createdAt: -1 });

export interface ImportPosition {
  bytes: number;
  line: number;
}

export interface ImportBatch {
  from: ImportPosition;
  to: ImportPosition;
  rows: number;
  created: number;
  updated: number;
  failed: number;
  subscribed: number;
  errors: LineError[];
  at: Date;
}

export type DeviceImportDocument = WithTypedPaths<
  InferSchemaType<typeof deviceImportSchema>,
  { checkpoint: ImportPosition; pending: ImportBatch | null; errors: LineError[]; columns?: string[] | null }
>;

export function deviceImportModel(connection: Connection) {
  return connection.model('DeviceImport', deviceImportSchema, 'device_imports');
}
