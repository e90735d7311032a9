/**
 * A condition's value as the segment builder shows it in one text box, and back. A list (in, nin) is its items
 * separated by commas; an item in double quotes is text exactly as quoted, commas and edge spaces included, so
 * that a saved segment opened and saved again is the segment it was ("Washington, D.C.", "02134" beside 2134).
 */

export type ValueType = 'auto' | 'text' | 'number' | 'boolean';

/**
 * What a marketer typing 30 means: a number. A leading zero (a postcode, "007") or more digits than a number holds
 * exactly (an id) stays text.
 */
const looksNumeric = /^\s*-?(0|[1-9]\d{0,14})(\.\d+)?\s*$/;

function quotedText(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length < 2 || !trimmed.startsWith('"') || !trimmed.endsWith('"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** One value as typed; `null` under auto is null, which event data can hold (where coupon eq null). */
function typedValue(text: string, valueType: ValueType): string | number | boolean | null {
  const quoted = quotedText(text);
  if (quoted !== undefined) return quoted;
  if (valueType === 'boolean') return text.trim() === 'true';
  if (valueType === 'auto') return looksNumeric.test(text) ? Number(text) : text.trim() === 'null' ? null : text;
  if (valueType !== 'number' || text.trim() === '') return text;
  // Number('abc') is NaN, which JSON sends as null: a condition on null, where event data means "missing or null".
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}

/** The items of a list: commas inside double quotes (with JSON's escapes) do not separate. */
function listItems(text: string): string[] {
  const items: string[] = [];
  let item = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (quoted && character === '\\') {
      item += character + (text[index + 1] ?? '');
      index += 1;
    } else if (character === ',' && !quoted) {
      items.push(item.trim());
      item = '';
    } else {
      if (character === '"') quoted = !quoted;
      item += character;
    }
  }
  items.push(item.trim());
  return items;
}

/** The value the API takes; text the number type cannot read is sent as typed, never as null. */
export function parseConditionValue(text: string, valueType: ValueType, list: boolean): unknown {
  return list ? listItems(text).map((item) => typedValue(item, valueType)) : typedValue(text, valueType);
}

/** Text that reads back as itself under auto; anything else is written quoted. */
function itemText(value: unknown, list: boolean): string {
  if (typeof value !== 'string') return String(value);
  const readsBack = typedValue(value, 'auto') === value && value.trim() === value && value !== '';
  return readsBack && !(list && /[",]/.test(value)) ? value : JSON.stringify(value);
}

/** A saved value as the builder shows it: parseConditionValue of the answer gives the value again. */
export function formatConditionValue(value: unknown): { text: string; valueType: ValueType } {
  if (value === undefined) return { text: '', valueType: 'auto' };
  const list = Array.isArray(value);
  const items: unknown[] = list ? value : [value];
  if (items.length > 0 && items.every((item) => typeof item === 'boolean'))
    return { text: items.join(', '), valueType: 'boolean' };
  // Numbers auto would not read as numbers (16 digits, exponents) keep the number type when the list is all numbers.
  if (items.length > 0 && items.every((item) => typeof item === 'number'))
    return { text: items.join(', '), valueType: 'number' };
  return { text: items.map((item) => itemText(item, list)).join(', '), valueType: 'auto' };
}

/**
 * One value as a segment condition would take it typed: text that would read as something else (30, null, " x") is
 * shown quoted, so the tag "30" and the number 30, which conditions tell apart, do not look the same.
 */
export function valueAsTyped(value: unknown): string {
  return itemText(value, false);
}
