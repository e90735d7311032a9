import type { Models } from '../models/index.ts';
import type { DeviceDocument } from '../models/device.ts';
import { maxTagsPerDevice, type TagChanges, type Tags } from '../schemas/tags.ts';
import { tagCountAfter } from './apply-tag-changes.ts';

/**
 * The update: a pipeline, so that a field may be computed from the document as the server writes it (the
 * re-subscription rule of a registration), which update operators cannot do. Each tag key is set or unset as the
 * field path tags.<key>, so the other keys, which concurrent writers may be changing, are left alone; field paths
 * take every key CONTRACTS §4 allows, spaces included, even leading or trailing, on MongoDB and on SecantusDB alike
 * (test/device-concurrency.test.ts). Tag values are $literal: in a pipeline the string "$x" would read field x.
 */
function devicePipeline(fields: Record<string, unknown>, changes: TagChanges): Array<Record<string, unknown>> {
  const set: Record<string, unknown> = { ...fields };
  const unset: string[] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) unset.push(`tags.${key}`);
    else set[`tags.${key}`] = { $literal: value };
  }
  return [...(Object.keys(set).length > 0 ? [{ $set: set }] : []), ...(unset.length > 0 ? [{ $unset: unset }] : [])];
}

/**
 * A filter condition that holds while the device would have at most maxTagsPerDevice tags after the changes: the
 * tags it keeps (those the changes do not name) plus those the changes set. The server evaluates it on the document
 * it is about to write, so of two concurrent writers that would together pass the limit, one matches nothing.
 */
function withinTagLimit(changes: TagChanges): { $expr?: unknown } {
  const entries = Object.entries(changes);
  if (entries.length === 0) return {};
  const named = entries.map(([key]) => key);
  const setCount = entries.filter(([, value]) => value !== null).length;
  const kept = { $filter: { input: { $objectToArray: { $ifNull: ['$tags', {}] } }, cond: { $not: [{ $in: ['$$this.k', { $literal: named }] }] } } };
  return { $expr: { $lte: [{ $add: [{ $size: kept }, setCount] }, maxTagsPerDevice] } };
}

export type DeviceChange = { device: DeviceDocument } | { tagCount: number } | null;

/**
 * Sets the fields (aggregation expressions: plain values go in $literal) and applies the tag changes to the device
 * the filter picks, as one atomic update that also checks the tag limit. Answers the device as it is after the
 * change, the tag count the changes would have left it with, or null when the filter picks no device. Only a refused
 * update reads the device, to tell a missing device from a full one; when that read finds room (a concurrent write
 * deleted tags in between) the update is tried again, and as each new try follows someone else's write, this ends.
 */
export async function changeDevice(models: Models, filter: { _id: string; userId?: string }, fields: Record<string, unknown>, changes: TagChanges = {}): Promise<DeviceChange> {
  const pipeline = devicePipeline(fields, changes);
  for (;;) {
    const device = await models.Device.findOneAndUpdate({ ...filter, ...withinTagLimit(changes) }, pipeline, { returnDocument: 'after', updatePipeline: true }).lean<DeviceDocument>();
    if (device) return { device };
    const current = await models.Device.findOne(filter, { tags: 1 }).lean();
    if (!current) return null;
    const tagCount = tagCountAfter((current.tags ?? {}) as Tags, changes);
    if (tagCount > maxTagsPerDevice) return { tagCount };
  }
}
