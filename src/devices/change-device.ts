import { isDeepStrictEqual } from 'node:util';
import type { Models } from '../models/index.ts';
import type { DeviceDocument } from '../models/device.ts';
import { maxTagsPerDevice, type TagChanges, type Tags } from '../schemas/tags.ts';
import { applyTagChanges, tagCountAfter } from './apply-tag-changes.ts';
import { unavailable } from '../errors.ts';

/** Each try follows another writer's success, so this many only under a storm of writes to one device. */
const maxAttempts = 100;

/** Field paths of the tags the changes set and unset: the other keys, which concurrent writers may change, stay. */
function tagUpdate(changes: TagChanges): { set: Record<string, unknown>; unset: Record<string, ''> } {
  const set: Record<string, unknown> = {};
  const unset: Record<string, ''> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) unset[`tags.${key}`] = '';
    else set[`tags.${key}`] = value;
  }
  return { set, unset };
}

/** The device after the change, with `previous`, the device as the change read it. */
export type DeviceChange = { device: DeviceDocument; previous: DeviceDocument } | { tagCount: number } | null;

/**
 * Whether the fields and the tags after the changes are what the device already has: an app that registers at every
 * start with the same token and tags then costs one read, not a write. Not at revision 0, though: the request that
 * created the device removes it again if it cannot queue @first_session, unless another request has written it since,
 * so a request answered 200 must write to keep it (DeviceStore's create).
 */
export function changesNothing(current: DeviceDocument, fields: Partial<DeviceDocument>, nextTags: Tags): boolean {
  if (!current.revision) return false;
  const sameField = ([name, value]: [string, unknown]) =>
    isDeepStrictEqual(current[name as keyof DeviceDocument], value);
  return Object.entries(fields).every(sameField) && isDeepStrictEqual(nextTags, current.tags ?? {});
}

/**
 * Applies the fields (computed from the device as read) and the tag changes to the device the filter picks, as a
 * read followed by one updateOne guarded by the revision read: a writer that lost a race to another matches nothing,
 * reads again and retries, so the tag limit and the re-subscription rule always hold on the document written, and
 * no change is lost; a change that would leave the device as it is writes nothing. Answers the device after the
 * change, the tag count the changes would have left it with (over the limit: nothing written), or null when the filter
 * picks no device. A caller that has just read the device whole passes that read as lastRead, which saves the first
 * read; a stale one costs a retry, or, when it shows nothing to change, answers the device as of that read.
 *
 * Not one findOneAndUpdate with the limit in an $expr filter: a device write must be an updateOne by _id, which every
 * server serves from its index, where the local server scans the collection for findAndModify and for $expr (the
 * storage quirks: docs/architecture.md#local-server-quirks); this costs one extra read by _id.
 */
export async function changeDevice(
  models: Models,
  filter: { _id: string; userId?: string },
  fieldsFor: (current: DeviceDocument) => Partial<DeviceDocument>,
  changes: TagChanges = {},
  lastRead?: DeviceDocument,
): Promise<DeviceChange> {
  const { set, unset } = tagUpdate(changes);
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    // From the primary: a revision read on a lagging secondary would never match, and the loop would spin.
    const current =
      (attempt === 1 ? lastRead : undefined) ??
      (await models.Device.findOne(filter).read('primary').lean<DeviceDocument>());
    if (!current) return null;
    const tags = current.tags ?? {};
    const tagCount = tagCountAfter(tags, changes);
    if (tagCount > maxTagsPerDevice) return { tagCount };
    const fields = fieldsFor(current);
    const nextTags = applyTagChanges(tags, changes);
    if (changesNothing(current, fields, nextTags)) return { device: current, previous: current };
    const update = {
      $set: { ...fields, ...set },
      $inc: { revision: 1 },
      ...(Object.keys(unset).length > 0 && { $unset: unset }),
    };
    const written = await models.Device.updateOne({ ...filter, revision: current.revision ?? null }, update);
    if (written.matchedCount === 1)
      return {
        device: { ...current, ...fields, tags: nextTags, revision: (current.revision ?? 0) + 1 },
        previous: current,
      };
  }
  throw unavailable('The device is being changed by many requests at once; retry shortly.');
}
