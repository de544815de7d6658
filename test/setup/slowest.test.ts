import { describe, expect, it } from 'vitest';
import { formatDuration, slowest, slowestReport } from './slowest.ts';

describe('the slowest report', () => {
  it('lists the longest first and no more than asked', () => {
    const entries = [{ name: 'a', ms: 5 }, { name: 'b', ms: 50 }, { name: 'c', ms: 20 }, { name: 'd', ms: 20 }];
    expect(slowest(entries, 3).map((entry) => entry.name)).toEqual(['b', 'c', 'd']);
    expect(entries.map((entry) => entry.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('writes seconds from a second up, milliseconds below, in one column', () => {
    expect(formatDuration(12_345)).toBe('  12.3 s');
    expect(formatDuration(849.6)).toBe('  850 ms');
  });

  it('heads each list with how many it shows of how many, and the files with their total', () => {
    const report = slowestReport('vitest', [{ name: 'x.test.ts', ms: 3000 }, { name: 'y.test.ts', ms: 1000 }], [{ name: 'x.test.ts > t', ms: 2500 }], 1);
    expect(report.split('\n')).toEqual([
      'vitest: the 1 slowest of 2 files (4.0 s in all)',
      '   3.0 s  x.test.ts',
      'vitest: the 1 slowest of 1 tests',
      '   2.5 s  x.test.ts > t',
    ]);
  });
});
