import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { territoryOf } from './country.ts';
import { NO_COVERAGE, coverage, entryMixed, isPureEntry, pureEntry } from './coverage.ts';
import { BLOCK_SIZE, blocksInBand, colCentre, rowCentre } from './grid.ts';
import { MixedBlocks } from './mixed-blocks.ts';

const table = coverage();

/** Band and block of every mixed id, from the block index. */
const places: { band: number; block: number }[] = [];
for (let band = 0; band < table.columns.length; band++) {
  for (let block = 0; block < blocksInBand(table.columns[band]); block++) {
    const entry = table.entryAt(band, block);
    if (!isPureEntry(entry) && entry !== NO_COVERAGE) places[entryMixed(entry)] = { band, block };
  }
}

/** What a cell centre's entry must be: its country-coder territory's, if that covers the block. */
function expected(mixed: number, lat: number, lng: number): number {
  const { block } = places[mixed];
  const country = table.indexOfCountry(territoryOf(lat, lng) ?? '');
  const number = country < 0 ? -1 : table.blockNumber(table.mixedRun[mixed], country, block);
  return number < 0 ? NO_COVERAGE : pureEntry(country, number);
}

/** The centre of cell (`row`, `col`) of mixed block `mixed`, clamped to a narrow last block. */
function centre(mixed: number, row: number, col: number): [number, number] {
  const { band, block } = places[mixed];
  const columns = table.columns[band];
  return [rowCentre(band * BLOCK_SIZE + row), colCentre(Math.min(columns - 1, block * BLOCK_SIZE + col), columns)];
}

describe('mixed blocks', () => {
  it('numbers every mixed block once', () => {
    expect(places.length).toBe(table.mixedRun.length);
    expect(places.every((place) => place !== undefined)).toBe(true);
  });

  it('gives a cell centre the entry of its country-coder territory, or none where that does not cover the block', () => {
    const blocks = new MixedBlocks(table);
    let covered = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: places.length - 1 }),
        fc.integer({ min: 0, max: BLOCK_SIZE - 1 }),
        fc.integer({ min: 0, max: BLOCK_SIZE - 1 }),
        (mixed, row, col) => {
          const [lat, lng] = centre(mixed, row, col);
          const { band, block } = places[mixed];
          const entry = blocks.entryAt(mixed, lat, lng, band, block);
          expect(entry).toBe(expected(mixed, lat, lng));
          if (entry !== NO_COVERAGE) covered++;
        },
      ),
      { numRuns: 5_000 },
    );
    // Most cells of mixed blocks are somebody's: the property is not met by answering "none".
    expect(covered).toBeGreaterThan(2_500);
  });

  it('keeps the records it built when its store grows', () => {
    const small = new MixedBlocks(table, 8);
    const fresh = new MixedBlocks(table);
    const sample = Array.from({ length: 300 }, (_, i) => Math.floor((i * places.length) / 300));
    const answers = (blocks: MixedBlocks): number[] =>
      sample.flatMap((mixed) => [0, 647, 1295].map((cell) => blocks.entryAt(mixed, ...centre(mixed, cell, cell), places[mixed].band, places[mixed].block)));
    const first = answers(small);
    expect(small.size).toBeGreaterThan(8);
    expect(answers(small)).toEqual(first);
    expect(answers(fresh)).toEqual(first);
  });

  it('holds the records of all mixed blocks in under 40 MB', () => {
    const blocks = new MixedBlocks(table);
    places.forEach(({ band, block }, mixed) => blocks.entryAt(mixed, ...centre(mixed, 0, 0), band, block));
    // docs/code-format.md §9 gives the figure: about 31 MB.
    expect(blocks.size * Float64Array.BYTES_PER_ELEMENT).toBeLessThan(40e6);
  });
});
