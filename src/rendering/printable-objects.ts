/**
 * Liquid prints an object with String(), which calls the object's toString or valueOf: a tag, a data key or an event
 * field named toString or valueOf holds a value there, not a function, and printing the object threw ("Cannot convert
 * object to primitive value"). Symbol.toPrimitive comes first and no JSON key can name it, so every object of a scope
 * is copied onto a prototype that has it: the object prints as any object does and each key stays a value Liquid reads.
 */
const printableObject: object = Object.create(Object.prototype, {
  [Symbol.toPrimitive]: { value: () => '[object Object]' },
});

export function printableObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(printableObjects);
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.create(printableObject) as object;
  // Defined, not assigned: a key named __proto__ is a value too.
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(copy, key, {
      value: printableObjects(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}
