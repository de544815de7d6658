import { describe, expect, it } from 'vitest';
import { functionSpans } from './function-length.ts';

const SOURCE = `export function outer(a: number): number {
  const inner = (b: number) => {
    return b + 1;
  };
  return inner(a);
}

class Cache {
  refresh(): void {
    [1, 2].forEach(function () {
      void 0;
    });
  }
}

export const table = { parse: (text: string) => text.trim() };
register(() => 1);
`;

describe('functionSpans', () => {
  it('names each function where it is bound, inside its outer ones, with the lines it spans', () => {
    expect(functionSpans('sample.ts', SOURCE)).toEqual([
      { name: 'outer', lines: 6 },
      { name: 'outer > inner', lines: 3 },
      { name: 'Cache.refresh', lines: 5 },
      { name: 'Cache.refresh > forEach(…)', lines: 3 },
      { name: 'parse', lines: 1 },
      { name: 'register(…)', lines: 1 },
    ]);
  });
});
