/** The bounded cache: oldest first out, expiry, and an eviction whose cost does not grow with the cache. */
import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.ts';

describe('BoundedCache', () => {
  it('drops the oldest entry first; storing a key again keeps its place', () => {
    const cache = new BoundedCache<number>(3);
    for (const [key, value] of [['a', 1], ['b', 2], ['c', 3], ['d', 4]] as const) cache.set(key, value);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([undefined, 2, 3, 4]);
    cache.set('b', 5);
    cache.set('e', 6);
    expect([cache.get('b'), cache.get('c'), cache.get('d'), cache.get('e'), cache.size]).toEqual([undefined, 3, 4, 6, 3]);
  });

  it('forgets an entry at its expiry, and evicts in order after deletions, a clear and a full turn', () => {
    const cache = new BoundedCache<string>(2);
    cache.set('a', 'A', 10);
    expect(cache.get('a', 9)).toBe('A');
    expect(cache.get('a', 10)).toBeUndefined();
    cache.set('b', 'B');
    cache.set('c', 'C');
    cache.set('d', 'D');
    expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([undefined, 'C', 'D']);
    cache.clear();
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, `${i}`);
    expect([cache.size, cache.get('k7'), cache.get('k8'), cache.get('k9')]).toEqual([2, undefined, '8', '9']);
  });

  it('evicts as fast from 100 000 entries as from 1 000', () => {
    /** Microseconds per set into a full cache of `max` entries, each evicting the oldest. */
    const evictionCost = (max: number): number => {
      const cache = new BoundedCache<null>(max);
      for (let i = 0; i < max; i++) cache.set(`old ${i}`, null);
      const sets = 200_000;
      const start = performance.now();
      for (let i = 0; i < sets; i++) cache.set(`new ${i}`, null);
      return ((performance.now() - start) * 1000) / sets;
    };
    evictionCost(1000);
    const small = evictionCost(1000);
    const large = evictionCost(100_000);
    // A new iterator per eviction made the large cache some 70 times slower (30 µs a set).
    expect(large, `${large.toFixed(2)} µs per set at 100 000 entries, ${small.toFixed(2)} µs at 1 000`).toBeLessThan(Math.max(10 * small, 3));
  });
});
