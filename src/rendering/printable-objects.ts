/**
 * Liquid prints an object with String(), which calls the object's toString or valueOf: a tag, a data key or an event
 * field named toString or valueOf holds a value there, not a function, and printing the object threw ("Cannot convert
 * object to primitive value"). Symbol.toPrimitive comes first and no JSON key can name it, so an object holding such
 * a key is copied onto a prototype that has it: the object prints as any object does and each key stays a value Liquid
 * reads. Scopes without such a key, nearly all, are used as they are.
 */
const printableObject: object = Object.create(Object.prototype, {
  [Symbol.toPrimitive]: { value: () => '[object Object]' },
});

const shadowsPrinting = (value: object) => Object.hasOwn(value, 'toString') || Object.hasOwn(value, 'valueOf');

function holdsShadowingObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsShadowingObject);
  if (shadowsPrinting(value)) return true;
  for (const key in value) if (holdsShadowingObject((value as Record<string, unknown>)[key])) return true;
  return false;
}

function printableCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(printableCopy);
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.create(printableObject) as object;
  // Defined, not assigned: a key named __proto__ is a value too.
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(copy, key, {
      value: printableCopy(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

/** Scopes already made printable: a scope reused for several renders (a device's content and buttons) is walked once. */
const printable = new WeakSet<object>();

export function printableObjects<T>(value: T): T {
  if (typeof value === 'object' && value !== null && printable.has(value)) return value;
  const result = holdsShadowingObject(value) ? (printableCopy(value) as T) : value;
  if (typeof result === 'object' && result !== null) printable.add(result);
  return result;
}
