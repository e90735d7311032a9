/** Keys a cache keeps at once by default; past its bound it starts over, which costs one read per key. */
const defaultMaxKeys = 10_000;

/**
 * What a process read of the database, trusted for maxAgeMs: a hot path (a delivery batch, a webhook call) asks at
 * every step and reads once per key and period, while a change reaches it within the period. Callers asking at once
 * share one read; a failed read is not kept, so the next asker reads again.
 */
export class ShortLivedCache<Value> {
  private readonly maxAgeMs: number;
  private readonly maxKeys: number;
  private readonly entries = new Map<string, { value: Promise<Value>; expires: number }>();

  constructor(maxAgeMs: number, maxKeys = defaultMaxKeys) {
    this.maxAgeMs = maxAgeMs;
    this.maxKeys = maxKeys;
  }

  get(key: string, read: () => Promise<Value>): Promise<Value> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expires > now) return cached.value;
    if (this.entries.size >= this.maxKeys) this.entries.clear();
    const value = read();
    const entry = { value, expires: now + this.maxAgeMs };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** The next asker reads again: this process changed what it read. */
  forget(key: string): void {
    this.entries.delete(key);
  }
}
