import { invalidRequest, type ApiError } from '../errors.ts';
import { maxTagsPerDevice, type TagChanges, type Tags } from '../schemas/tags.ts';

/** How many tags a device has after the changes, without building the result. */
export function tagCountAfter(current: Tags, changes: TagChanges): number {
  let count = Object.keys(current).length;
  for (const [key, value] of Object.entries(changes)) {
    const present = Object.hasOwn(current, key);
    if (value === null && present) count -= 1;
    if (value !== null && !present) count += 1;
  }
  return count;
}

export const tooManyTagsMessage = `A device can have at most ${maxTagsPerDevice} tags; delete some with null values first.`;

/** The 400 for changes that would leave one device with tagCount tags, more than the limit. */
export function tooManyTags(tagCount: number): ApiError {
  return invalidRequest(tooManyTagsMessage, [
    { path: '/tags', message: `would leave the device with ${tagCount} tags` },
  ]);
}

/** The tags a device has after the changes; a null value deletes. Refuses a result over the per-device limit. */
export function applyTagChanges(current: Tags, changes: TagChanges | undefined): Tags {
  if (!changes) return current;
  const count = tagCountAfter(current, changes);
  if (count > maxTagsPerDevice) throw tooManyTags(count);
  const next: Tags = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}
