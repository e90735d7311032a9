import { liquid } from './liquid.ts';
import { contentFields, type ParsedContent } from './message-content.ts';
import { isTagKey } from '../schemas/tags.ts';

/**
 * Which device tags the content reads: a list of names, or 'all' when a template reaches the tags as a whole (their
 * size included) or by a computed name. Only those are loaded and carried with a delivery batch, whatever else a
 * device has. The names become projection paths (tags.<name>): a name no tag can have ($x, empty, with a dot) is left
 * out, as it would make the query fail.
 */
export function referencedDeviceTags(content: ParsedContent): 'all' | string[] {
  const names = new Set<string>();
  for (const field of contentFields) {
    const template = content[field];
    if (template === null) continue;
    for (const [root, second, third] of liquid.globalVariableSegmentsSync(template)) {
      if (root !== 'device' || (second !== undefined && second !== 'tags')) continue;
      // Liquid reads `size` of the tags object as their count, even where a tag of that name exists.
      if (typeof third !== 'string' || third === 'size') return 'all';
      if (isTagKey(third)) names.add(third);
    }
  }
  return [...names];
}
