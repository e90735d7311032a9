import { Type } from 'typebox';

/**
 * No field takes NUL: a notification shows nothing after it on some devices and C-string consumers end the text there,
 * and an id holding one names something no one can type again.
 */
const nulFreePattern = '^[^\\u0000]*$';

/** Some text besides white space, and no NUL: an id of only spaces names nothing a person could tell apart. */
export const someTextPattern = '^\\s*[^\\s\\u0000][^\\u0000]*$';

/** Message content (a title, a body, a link): at most maxLength characters, without NUL. */
export const Text = (maxLength: number, options: Record<string, unknown> = {}) =>
  Type.String({
    maxLength,
    pattern: nulFreePattern,
    errorMessage: `must be at most ${maxLength} characters, without NUL`,
    ...options,
  });

/** Content a stored message may leave out: text, or null. */
export const NullableText = (maxLength: number) =>
  Type.Optional(
    Type.Union([Text(maxLength), Type.Null()], {
      errorMessage: `must be at most ${maxLength} characters without NUL, or null`,
    }),
  );

/** An id a customer chooses (a user, an event's subject, a template): 1 to maxLength characters, not only spaces. */
export const Id = (maxLength: number) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: someTextPattern,
    errorMessage: `must be 1 to ${maxLength} characters, not only spaces, without NUL`,
  });
