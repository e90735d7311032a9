import { Type, type Static } from 'typebox';
import { DeviceId, ProjectParams } from './common.ts';
import type { RegisterDeviceBody } from './device.ts';

export const deviceImportFormats = ['ndjson', 'csv'] as const;
export type DeviceImportFormat = (typeof deviceImportFormats)[number];

export const deviceImportStatuses = ['queued', 'running', 'completed', 'failed'] as const;

/** The media type of each format an import takes (CONTRACTS §20). */
export const importMediaTypes: Record<string, DeviceImportFormat> = {
  'application/x-ndjson': 'ndjson',
  'text/csv': 'csv',
};

/** At most this many line errors are kept; the others are counted in failed. */
export const maxReportedLineErrors = 100;
export const maxImportRows = 1_000_000;
export const maxImportBytes = 256 * 1024 * 1024;

/**
 * What a row of an import adds to a registration (CONTRACTS §3 and §4, RegisterDeviceBody): the device's id and,
 * optionally, its subscription state. isSubscribed false unsubscribes the device, true subscribes it again; absent,
 * registration's rules decide.
 */
export const ImportRowIdentity = Type.Object({
  id: DeviceId,
  isSubscribed: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
});
export type ImportRow = Static<typeof RegisterDeviceBody> & Static<typeof ImportRowIdentity>;

export const LineError = Type.Object({ line: Type.Integer(), message: Type.String() });
export type LineError = Static<typeof LineError>;

export const DeviceImportView = Type.Object({
  id: Type.String(),
  status: Type.Enum(deviceImportStatuses),
  format: Type.Enum(deviceImportFormats),
  bytes: Type.Integer(),
  /** The bytes applied so far: bytesRead / bytes is how far the import has come. */
  bytesRead: Type.Integer(),
  rows: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  failed: Type.Integer(),
  errors: Type.Array(LineError),
  /** Why the import failed as a whole (its CSV header names no id column, say); line errors are in errors. */
  reason: Type.Optional(Type.String()),
  createdAt: Type.String(),
});
export type DeviceImportView = Static<typeof DeviceImportView>;

export const DeviceImportParams = Type.Object({
  projectId: ProjectParams.properties.projectId,
  importId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const exportFormats = ['ndjson', 'csv'] as const;

export const DeviceExportQuery = Type.Object(
  {
    format: Type.Enum(exportFormats, { default: 'ndjson', errorMessage: 'must be ndjson or csv' }),
    segmentId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type DeviceExportQuery = Static<typeof DeviceExportQuery>;
