/** The in-process counters: all or nothing across budgets, windows by id, refusals free, old counts swept. */
import { describe, expect, it } from 'vitest';
import type { Budget } from '../counters.ts';
import { memoryCounters } from './memory-counters.ts';

const budget = (id: string, limit: number, resetsAt = 1_000_000): Budget => ({ id, limit, resetsAt, keyId: 'key_1', kind: 'server' });

describe('memoryCounters', () => {
  it('counts a budget down to zero, then refuses, remembering only the first refusal', async () => {
    const counters = memoryCounters();
    const b = [budget('a', 2)];
    expect(await counters.take(b, 0)).toEqual({ spent: -1, remaining: [1], firstRefusal: false });
    expect(await counters.take(b, 0)).toEqual({ spent: -1, remaining: [0], firstRefusal: false });
    expect(await counters.take(b, 0)).toEqual({ spent: 0, remaining: [0], firstRefusal: true });
    expect(await counters.take(b, 0)).toEqual({ spent: 0, remaining: [0], firstRefusal: false });
    expect((await counters.take([budget('b', 2)], 0)).spent).toBe(-1);
  });

  it('counts a request against every budget or, when one is spent, against none', async () => {
    const counters = memoryCounters();
    const small = budget('small', 1);
    const large = budget('large', 5);
    expect(await counters.take([small, large], 0)).toEqual({ spent: -1, remaining: [0, 4], firstRefusal: false });
    // Refused by the small budget: the large one is not charged for it.
    expect(await counters.take([small, large], 0)).toEqual({ spent: 0, remaining: [0, 4], firstRefusal: true });
    expect(await counters.take([large], 0)).toEqual({ spent: -1, remaining: [3], firstRefusal: false });
    // The first spent budget is the one named.
    const none = budget('none', 1);
    await counters.take([none], 0);
    expect((await counters.take([large, none, small], 0)).spent).toBe(1);
  });

  it('applies a limit raised within the window to what was served', async () => {
    const counters = memoryCounters();
    await counters.take([budget('a', 1)], 0);
    expect((await counters.take([budget('a', 1)], 0)).spent).toBe(0);
    expect(await counters.take([budget('a', 4)], 0)).toMatchObject({ spent: -1, remaining: [2] });
  });

  it('starts a count afresh once its window has ended, with a new first refusal', async () => {
    const counters = memoryCounters();
    const first = budget('a', 1, 100);
    await counters.take([first], 0);
    expect(await counters.take([first], 99)).toMatchObject({ spent: 0, firstRefusal: true });
    const next = budget('a', 1, 200);
    expect(await counters.take([next], 100)).toEqual({ spent: -1, remaining: [0], firstRefusal: false });
    expect(await counters.take([next], 150)).toMatchObject({ spent: 0, firstRefusal: true });
  });

  it('forgets the counts of ended windows, so that sessions and hours gone by take no memory', async () => {
    const counters = memoryCounters();
    for (let i = 0; i < 1000; i++) await counters.take([budget(`session:${i}`, 5, 10_000 + i)], 0);
    await counters.take([budget('long', 5, 500_000)], 0);
    expect(counters.size).toBe(1001);
    // Within the minute nothing is swept; a minute on, the next request sweeps out every ended window.
    await counters.take([budget('long', 5, 500_000)], 59_000);
    expect(counters.size).toBe(1001);
    await counters.take([budget('long', 5, 500_000)], 60_000);
    expect(counters.size).toBe(1);
    // A count whose window ended is new, whether or not it was swept yet.
    expect(await counters.take([budget('session:1', 5, 500_000)], 60_000)).toMatchObject({ remaining: [4] });
  });
});
