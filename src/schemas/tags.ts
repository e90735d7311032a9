import { Type, type Static } from 'typebox';
import { FiniteNumber, KeyedBy } from './common.ts';
import { characterCount } from './characters.ts';

export const maxTagsPerDevice = 100;
export const maxTagValueLength = 1024;

export const tagKeyMessage = 'tag keys are 1 to 64 characters, must not start with $ and must not contain . or NUL';
const tagValueMessage = `must be a string of at most ${maxTagValueLength} characters, a finite number, or null to delete the tag`;

export const maxTagKeyLength = 64;
/** Keys become MongoDB field paths (tags.<key>, data.<key>), hence no leading $, no dot and no NUL. */
export const tagKeyPattern = '^(?!\\$)[^.\\u0000]*$';

const tagKeyRegExp = new RegExp(tagKeyPattern);

/** The key rule of TagKey as a test, for keys that arrive outside a request schema. */
export function isTagKey(key: string): boolean {
  const length = characterCount(key);
  return length >= 1 && length <= maxTagKeyLength && tagKeyRegExp.test(key);
}

export const TagKey = Type.String({
  minLength: 1,
  maxLength: maxTagKeyLength,
  pattern: tagKeyPattern,
  errorMessage: tagKeyMessage,
});

export const TagValue = Type.Union([Type.String({ maxLength: maxTagValueLength }), FiniteNumber()], {
  errorMessage: tagValueMessage,
});

/**
 * At most every tag a device may hold deleted and as many set in their place: the limit of 100 is on the device,
 * checked once the changes are applied, so replacing a whole tag set takes one call.
 */
const maxTagChanges = 2 * maxTagsPerDevice;

/** Tag changes as sent by a client: a null value deletes the tag. Keys become MongoDB field paths, hence the key rule. */
export const TagChanges = KeyedBy(Type.Union([TagValue, Type.Null()], { errorMessage: tagValueMessage }), {
  propertyNames: TagKey,
  maxProperties: maxTagChanges,
  errorMessage: `must be an object of at most ${maxTagChanges} tag changes`,
});
export type TagChanges = Static<typeof TagChanges>;

export const Tags = KeyedBy(TagValue);
export type Tags = Static<typeof Tags>;

/** A tag key seen on the project's recent devices, with how many of them carry it and its most frequent values. */
export const TagSuggestion = Type.Object({
  key: Type.String(),
  /** How many of the sampled devices carry the key. */
  devices: Type.Integer({ minimum: 1 }),
  /** Its most frequent values among them, most frequent first (short ones only). */
  values: Type.Array(Type.Union([Type.String(), Type.Number()])),
});
export type TagSuggestion = Static<typeof TagSuggestion>;
