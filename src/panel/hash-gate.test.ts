/**
 * The gate password hashes pass through: at most so many at once, the rest in line in their order, and
 * beyond the line a 503 with Retry-After at once. Driven with promises the test settles, so what runs
 * when is exact.
 */
import { describe, expect, it } from 'vitest';
import { LocError } from '../errors.ts';
import { gate } from './hash-gate.ts';

/** A piece of work that runs until the test ends it. */
function pending() {
  let end!: (value: string) => void;
  let fail!: (error: Error) => void;
  const started = { value: false };
  const work = () => {
    started.value = true;
    return new Promise<string>((resolve, reject) => {
      end = resolve;
      fail = reject;
    });
  };
  return { work, started, end: (value: string) => end(value), fail: (error: Error) => fail(error) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('gate', () => {
  it('runs two at once, starts the next in line as one ends, failed or not, and refuses beyond the line', async () => {
    const through = gate(2, 2);
    const works = Array.from({ length: 4 }, pending);
    const results = works.map((each) => through(each.work));
    await settle();
    expect(works.map((each) => each.started.value)).toEqual([true, true, false, false]);
    const refused = await through(pending().work).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LocError);
    expect(refused).toMatchObject({ code: 'service_unavailable', status: 503, retryAfterSeconds: 5 });
    expect(through.stats()).toEqual({ running: 2, queued: 2, refused: 1 });

    works[1].fail(new Error('out of memory'));
    await expect(results[1]).rejects.toThrow('out of memory');
    await settle();
    expect(works.map((each) => each.started.value)).toEqual([true, true, true, false]);
    works[0].end('a');
    expect(await results[0]).toBe('a');
    await settle();
    expect(works[3].started.value).toBe(true);
    works[2].end('c');
    works[3].end('d');
    expect(await Promise.all([results[2], results[3]])).toEqual(['c', 'd']);
    expect(through.stats()).toEqual({ running: 0, queued: 0, refused: 1 });

    // All done: two places again, and an empty line.
    const again = [pending(), pending(), pending()];
    const later = again.map((each) => through(each.work));
    await settle();
    expect(again.map((each) => each.started.value)).toEqual([true, true, false]);
    again[0].end('x');
    again[1].end('y');
    await settle();
    again[2].end('z');
    expect(await Promise.all(later)).toEqual(['x', 'y', 'z']);
  });
});
