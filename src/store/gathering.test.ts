import { describe, expect, it } from 'vitest';
import { gathering } from './gathering.ts';

/** A step whose answers the test releases: records each step's questions. */
function heldSteps() {
  const steps: number[][] = [];
  const release: Array<() => void> = [];
  const ask = gathering<number, number>((questions) => {
    steps.push(questions);
    return new Promise((resolve, reject) => release.push(() => (questions.includes(-1) ? reject(new Error('engine gone')) : resolve(questions.map((q) => q * 10)))));
  });
  return { steps, ask, next: () => release.shift()!() };
}

describe('gathering', () => {
  it('sends a call at once when nothing is in flight, and the calls that come meanwhile together in the next step', async () => {
    const { steps, ask, next } = heldSteps();
    const first = ask(1);
    const rest = [ask(2), ask(3), ask(4)];
    expect(steps).toEqual([[1]]);
    next();
    expect(await first).toBe(10);
    await Promise.resolve();
    expect(steps).toEqual([[1], [2, 3, 4]]);
    next();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it('fails each call of a failed step, and only those', async () => {
    const { ask, next } = heldSteps();
    const first = ask(1);
    const failed = [ask(-1), ask(5)];
    next();
    await first;
    const later = (await Promise.resolve(), ask(6));
    next();
    await expect(Promise.all(failed.map((call) => call.catch((error: Error) => error.message)))).resolves.toEqual(['engine gone', 'engine gone']);
    next();
    expect(await later).toBe(60);
  });

  it('takes at most 256 calls in one step', async () => {
    const { steps, ask, next } = heldSteps();
    const calls = Array.from({ length: 600 }, (_, i) => ask(i));
    for (let i = 0; i < 4; i++) {
      await Promise.resolve();
      next();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(calls);
    expect(steps.map((step) => step.length)).toEqual([1, 256, 256, 87]);
  });
});
