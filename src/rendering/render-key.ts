import { liquid } from './liquid.ts';
import { contentFields, type ParsedContent } from './message-content.ts';
import type { ScopeDevice } from './personalization-scope.ts';

/** What of the device a content reads; null for the device as a whole, its tags as a whole or by a computed name. */
type DeviceReads = { id: boolean; userId: boolean; tags: string[] } | null;

function deviceReads(content: ParsedContent): DeviceReads {
  const reads = { id: false, userId: false, tags: new Set<string>() };
  for (const field of contentFields) {
    const template = content[field];
    if (template === null) continue;
    for (const [root, second, third] of liquid.globalVariableSegmentsSync(template)) {
      if (root !== 'device') continue;
      if (second === 'id') reads.id = true;
      else if (second === 'userId') reads.userId = true;
      // Liquid reads `size` of the tags object as their count, even where a tag of that name exists.
      else if (second === 'tags' && typeof third === 'string' && third !== 'size') reads.tags.add(third);
      else return null;
    }
  }
  return { id: reads.id, userId: reads.userId, tags: [...reads.tags] };
}

const keyers = new WeakMap<ParsedContent, ((device: ScopeDevice) => string) | null>();

/**
 * The key under which devices render this content alike: the values of the device's variables its templates read.
 * Liquid's output depends on nothing else of the device, so within one task (one moment, one message's data) a
 * device whose key was rendered already takes that rendering. Null when a template reads the device as a whole, its
 * tags as a whole or by a computed name: then each device renders.
 */
export function renderKeyOf(content: ParsedContent): ((device: ScopeDevice) => string) | null {
  let keyer = keyers.get(content);
  if (keyer === undefined) {
    const reads = deviceReads(content);
    keyer =
      reads &&
      ((device) =>
        JSON.stringify([
          reads.id ? device.deviceId : 0,
          reads.userId ? (device.userId ?? null) : 0,
          reads.tags.map((name) => (device.tags && Object.hasOwn(device.tags, name) ? device.tags[name] : null)),
        ]));
    keyers.set(content, keyer);
  }
  return keyer;
}
