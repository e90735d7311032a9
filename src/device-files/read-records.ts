import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { DeviceImportFormat } from '../schemas/device-import.ts';
import type { ImportPosition } from '../models/device-import.ts';

/** One row of a file as read: its fields (NDJSON's object, CSV's cells by column), or why it could not be read. */
export interface ImportRecord {
  line: number;
  /** Where the next row starts: the checkpoint once this row is applied. */
  end: ImportPosition;
  fields?: Record<string, unknown>;
  problem?: string;
}

const newline = 0x0a;

/** NDJSON lines from `start` on: blank lines are skipped, and a line that is not a JSON object is a problem. */
async function* ndjsonRecords(source: Readable, start: ImportPosition): AsyncIterable<ImportRecord> {
  let { bytes, line } = start;
  let rest = Buffer.alloc(0);
  const recordOf = (text: Buffer, last: boolean): ImportRecord | null => {
    bytes += text.length + (last ? 0 : 1);
    line += 1;
    const body = text.toString('utf8').trim();
    if (body === '') return null;
    const end = { bytes, line };
    try {
      const fields: unknown = JSON.parse(body);
      if (typeof fields === 'object' && fields !== null && !Array.isArray(fields))
        return { line, end, fields: fields as Record<string, unknown> };
    } catch {
      return { line, end, problem: 'is not valid JSON' };
    }
    return { line, end, problem: 'is not a JSON object' };
  };
  for await (const chunk of source as AsyncIterable<Buffer>) {
    let buffer = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    for (let at = buffer.indexOf(newline); at !== -1; at = buffer.indexOf(newline)) {
      const record = recordOf(buffer.subarray(0, at), false);
      buffer = buffer.subarray(at + 1);
      if (record) yield record;
    }
    rest = Buffer.from(buffer);
  }
  const record = rest.length > 0 ? recordOf(rest, true) : null;
  if (record) yield record;
}

/**
 * CSV rows from `start` on, by csv-parse. The first run reads the header row and hands it to onColumns; a resumed
 * one starts past it with the columns stored. A row with the wrong number of cells is a problem of its line.
 */
async function* csvRecords(
  source: Readable,
  start: ImportPosition,
  columns: string[] | undefined,
  onColumns: (columns: string[]) => Promise<void>,
): AsyncIterable<ImportRecord> {
  const parser = source.pipe(parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true }));
  // A run from the start of the file reads the header row, even one resuming a batch left pending there.
  let header = start.bytes === 0 ? undefined : columns;
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { bytes: number; lines: number };
  }>) {
    const end = { bytes: start.bytes + info.bytes, line: start.line + info.lines };
    if (!header) {
      header = record.map((name) => name.trim());
      await onColumns(header);
      continue;
    }
    if (record.length !== header.length) {
      yield { line: end.line, end, problem: `has ${record.length} cells where the header has ${header.length}` };
      continue;
    }
    yield { line: end.line, end, fields: Object.fromEntries(header.map((name, index) => [name, record[index]])) };
  }
}

export function importRecords(
  format: DeviceImportFormat,
  source: Readable,
  start: ImportPosition,
  columns: string[] | undefined,
  onColumns: (columns: string[]) => Promise<void>,
): AsyncIterable<ImportRecord> {
  return format === 'ndjson' ? ndjsonRecords(source, start) : csvRecords(source, start, columns, onColumns);
}
