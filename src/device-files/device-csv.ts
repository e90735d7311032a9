import type { Tags } from '../schemas/tags.ts';

/**
 * The CSV columns of a device (CONTRACTS §20), read by an import and written by an export: a web device's Web Push
 * subscription is one `webPush` cell holding its JSON (as PushSubscription.toJSON() gives it), each tag a `tag:<key>`
 * column. An empty cell sets nothing.
 */
export const deviceCsvColumns = [
  'id',
  'platform',
  'pushToken',
  'webPush',
  'userId',
  'language',
  'timezone',
  'isSubscribed',
] as const;

export const tagColumnPrefix = 'tag:';

/** A tag cell's value: a number when the cell is a number as JavaScript writes one (so 42 round-trips), else text. */
function tagValue(cell: string): string | number {
  const number = Number(cell);
  return cell.trim() !== '' && Number.isFinite(number) && String(number) === cell ? number : cell;
}

/** Why a cell cannot be read, or the row's fields for validation as an NDJSON row would be. */
export function fieldsFromOurCsv(cells: Record<string, string>): Record<string, unknown> | string {
  const fields: Record<string, unknown> = {};
  const tags: Tags = {};
  for (const [column, cell] of Object.entries(cells)) {
    if (cell === '') continue;
    if (column.startsWith(tagColumnPrefix)) tags[column.slice(tagColumnPrefix.length)] = tagValue(cell);
    else if (column === 'isSubscribed') {
      if (cell !== 'true' && cell !== 'false') return 'isSubscribed must be true or false';
      fields.isSubscribed = cell === 'true';
    } else if (column === 'webPush') {
      try {
        fields.webPush = JSON.parse(cell);
      } catch {
        return 'webPush must be the subscription as JSON ({"endpoint", "keys": {"p256dh", "auth"}})';
      }
    } else fields[column] = cell;
  }
  if (Object.keys(tags).length > 0) fields.tags = tags;
  return fields;
}

/** Whether a header row is ours: the columns above and tag columns, in any order, id and platform among them. */
export function isOurCsvHeader(columns: string[]): boolean {
  const known = new Set<string>(deviceCsvColumns);
  return (
    columns.includes('id') &&
    columns.includes('platform') &&
    columns.every((column) => known.has(column) || column.startsWith(tagColumnPrefix))
  );
}

export interface ExportedDevice {
  id: string;
  platform: string;
  pushToken?: string;
  webPush?: { endpoint: string; keys: { p256dh: string; auth: string } };
  userId: string | null;
  tags: Tags;
  language: string | null;
  timezone: string | null;
  isSubscribed: boolean;
}

/** A device's CSV cells under the header deviceCsvColumns then `tag:<key>` for each of tagKeys. */
export function csvCells(device: ExportedDevice, tagKeys: string[]): string[] {
  return [
    device.id,
    device.platform,
    device.pushToken ?? '',
    device.webPush ? JSON.stringify(device.webPush) : '',
    device.userId ?? '',
    device.language ?? '',
    device.timezone ?? '',
    String(device.isSubscribed),
    ...tagKeys.map((key) => (Object.hasOwn(device.tags, key) ? String(device.tags[key]) : '')),
  ];
}
