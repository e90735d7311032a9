import type { Models } from '../models/index.ts';
import { newestFirst } from '../models/newest-first-list.ts';
import type { TagSuggestion } from '../schemas/tags.ts';

/** How many of the project's newest devices are read: enough to see the keys in use, bounded whatever the base. */
export const tagSampleSize = 500;
const valuesPerKey = 20;
const keysSuggested = 200;
/** A value longer than this is an id or a text, not a choice a marketer picks from a list. */
const longestSuggestedValue = 64;

/**
 * The tags of the project's newest devices, on the (projectId, createdAt, _id) index, named: a planner may otherwise
 * take the tags' wildcard index, which also starts with projectId but holds no order.
 */
export const recentTagsQuery = (models: Models, projectId: string) =>
  models.Device.find({ projectId }, { _id: 0, tags: 1 })
    .sort(newestFirst)
    .hint({ projectId: 1, ...newestFirst })
    .limit(tagSampleSize);

/**
 * The tag keys of the project's newest devices, those carried by most first, each with its most frequent short values:
 * what the console suggests in segment, journey and in-app conditions. Read as a stream in small batches, so memory
 * follows the counts kept, never the sample's whole tags.
 */
export async function tagSuggestions(models: Models, projectId: string): Promise<TagSuggestion[]> {
  const keys = new Map<string, { devices: number; values: Map<string | number, number> }>();
  for await (const device of recentTagsQuery(models, projectId).lean().cursor({ batchSize: 100 })) {
    for (const [key, value] of Object.entries((device.tags ?? {}) as Record<string, unknown>)) {
      const seen = keys.get(key) ?? { devices: 0, values: new Map() };
      seen.devices += 1;
      if (typeof value === 'number' || (typeof value === 'string' && value.length <= longestSuggestedValue))
        seen.values.set(value, (seen.values.get(value) ?? 0) + 1);
      keys.set(key, seen);
    }
  }
  return [...keys]
    .map(([key, seen]) => ({
      key,
      devices: seen.devices,
      values: [...seen.values]
        .sort(([, a], [, b]) => b - a)
        .slice(0, valuesPerKey)
        .map(([value]) => value),
    }))
    .sort((a, b) => b.devices - a.devices || a.key.localeCompare(b.key))
    .slice(0, keysSuggested);
}
