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

/**
 * Characters that render as nothing: white space, controls, format characters (zero-width space and joiners, the
 * soft hyphen, direction marks) and the Hangul and Braille blanks.
 */
const invisible = '\\s\\p{Cc}\\p{Cf}\\u115F\\u1160\\u2800\\u3164\\uFFA0';

/** A pattern matching text with at least one character that shows (patterns are compiled with the u flag). */
export const visibleTextPattern = `[^${invisible}]`;

const visible = new RegExp(visibleTextPattern, 'u');

/** Whether the text shows anything: a body of zero-width spaces is as empty as a blank one. */
export const isVisibleText = (text: string) => visible.test(text);
