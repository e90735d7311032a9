import { invalidRequest } from '../http/api-error.ts';
import { maxTagsPerDevice, type TagChanges, type Tags } from '../schemas/tags.ts';

/** The tags a device has after the changes; a null value deletes. Refuses a result over the per-device limit. */
export function applyTagChanges(current: Tags, changes: TagChanges | undefined): Tags {
  if (!changes) return current;
  const next: Tags = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  if (Object.keys(next).length > maxTagsPerDevice) {
    throw invalidRequest(`A device can have at most ${maxTagsPerDevice} tags; delete some with null values first.`, [
      { path: '/tags', message: `would leave the device with ${Object.keys(next).length} tags` },
    ]);
  }
  return next;
}
