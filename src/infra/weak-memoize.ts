/**
 * One value per key object, made at its first use and dropped with the key: state a process shares among everyone
 * using the same database connection or render pool.
 */
export function weakMemoize<Key extends object, Value>(create: (key: Key) => Value): (key: Key) => Value {
  const made = new WeakMap<Key, Value>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = create(key);
      made.set(key, value);
    }
    return value;
  };
}
