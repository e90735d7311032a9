import type { Config } from '../config.ts';
import { RegisterDeviceBody } from '../schemas/device.ts';
import { ImportRowIdentity, type ImportRow } from '../schemas/device-import.ts';
import { bodyPartErrors } from '../schemas/validation.ts';
import { publicHttpsUrlProblem } from '../net/public-url.ts';
import { fieldsFromOurCsv, isOurCsvHeader } from './device-csv.ts';
import { fieldsFromOneSignalCsv, isOneSignalHeader } from './onesignal-csv.ts';

/** How a CSV file's rows become fields: by its header, ours or OneSignal's export; anything else fails the import. */
export type CsvDialect = (cells: Record<string, string>) => Record<string, unknown> | string;

export function csvDialect(columns: string[]): CsvDialect | null {
  if (isOurCsvHeader(columns)) return fieldsFromOurCsv;
  if (isOneSignalHeader(columns)) return fieldsFromOneSignalCsv;
  return null;
}

export const unknownHeaderMessage =
  'The header row is neither this service’s columns (id, platform, pushToken, webPush, userId, language, timezone, ' +
  'isSubscribed, tag:<key>) nor a OneSignal subscriptions export (id, identifier, device_type, ...).';

/**
 * A row's fields as a device, by the rules of a registration (CONTRACTS §3, §4) plus its id and subscription state,
 * or why not, naming each offending field as a request's 400 would.
 */
export function validateRow(
  config: Pick<Config, 'pushGateway'>,
  fields: Record<string, unknown>,
): { row: ImportRow } | { problem: string } {
  const { id, isSubscribed, ...registration } = fields;
  const details = [
    ...bodyPartErrors(ImportRowIdentity, { id, ...(isSubscribed !== undefined && { isSubscribed }) }, ''),
    ...bodyPartErrors(RegisterDeviceBody, registration, ''),
  ];
  if (details.length > 0) {
    const named = details.map((detail) => `${detail.path.slice(1) || 'the row'} ${detail.message}`);
    return { problem: named.join('; ') };
  }
  const row = fields as ImportRow;
  if (row.webPush) {
    const problem = publicHttpsUrlProblem(row.webPush.endpoint, { allowPrivate: config.pushGateway === 'sandbox' });
    if (problem) return { problem: `webPush/endpoint ${problem}` };
  }
  return { row };
}
