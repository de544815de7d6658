/**
 * A bounded in-memory cache: a Map with an entry limit (the oldest entry goes first) and an optional
 * expiry per entry. Small on purpose; used for keys, sessions, saved locations and addresses.
 */
export class BoundedCache<V> {
  private readonly map = new Map<string, { value: V; until: number }>();

  constructor(private readonly max: number) {}

  /** The value, unless absent or expired at `now`. */
  get(key: string, now = 0): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= now) {
      this.map.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores a value until the time `until` (default: until evicted). */
  set(key: string, value: V, until = Infinity): void {
    if (this.map.size >= this.max && !this.map.has(key)) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, { value, until });
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}
