/**
 * A bounded in-memory cache: a Map with an entry limit (the oldest entry goes first) and an optional
 * expiry per entry. Small on purpose; used for keys, sessions, saved locations and addresses.
 *
 * The oldest entry is found with one iterator kept for the cache's life, not a new one per eviction:
 * V8 leaves a deleted entry's slot in the Map until the table is next rebuilt, and a fresh iterator
 * walks every such slot from the start. Evicting the oldest of 100 000 that way cost some 30 µs, a
 * cost any client could have paid by the service on each request with a made-up key or session id.
 */
export class BoundedCache<V> {
  private readonly map = new Map<string, { value: V; until: number }>();
  /** Walks the keys in insertion order; everything before it has been evicted or deleted. */
  private oldest: Iterator<string> = this.map.keys();

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
    if (this.map.size >= this.max && !this.map.has(key)) this.evictOldest();
    this.map.set(key, { value, until });
  }

  clear(): void {
    this.map.clear();
    this.oldest = this.map.keys();
  }

  get size(): number {
    return this.map.size;
  }

  private evictOldest(): void {
    let next = this.oldest.next();
    // A Map iterator that reached the end stays there, even after new entries: start a new one.
    if (next.done) {
      this.oldest = this.map.keys();
      next = this.oldest.next();
    }
    if (!next.done) this.map.delete(next.value);
  }
}
