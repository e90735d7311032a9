/**
 * How many characters a string has as JSON Schema's maxLength counts them (code points, ajv's ucs2length), so a
 * check made outside a schema agrees with the schemas: an emoji is one character, not the two UTF-16 units of
 * String.length.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
