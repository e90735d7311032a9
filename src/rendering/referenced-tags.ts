import { liquid } from './liquid.ts';
import { contentFields, type ParsedContent } from './message-content.ts';

/**
 * Which device tags the content reads: a list of names, or 'all' when a template reaches the tags as a whole or by a
 * computed name. Only those are loaded and carried with a delivery batch, whatever else a device has.
 */
export function referencedDeviceTags(content: ParsedContent): 'all' | string[] {
  const names = new Set<string>();
  for (const field of contentFields) {
    const template = content[field];
    if (template === null) continue;
    for (const [root, second, third] of liquid.globalVariableSegmentsSync(template)) {
      if (root !== 'device' || (second !== undefined && second !== 'tags')) continue;
      if (typeof third !== 'string') return 'all';
      names.add(third);
    }
  }
  return [...names];
}
