import * as countryCoder from '@rapideditor/country-coder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { squareOf } from './block-fills.ts';
import { territoryOf } from './country.ts';
import { NO_COVERAGE, entryMixed, isPureEntry, pureEntry } from './coverage.ts';
import { coverage } from './shipped-table.ts';
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

/**
 * What the entry of a cell must be: its centre's country-coder territory's, if that covers the block;
 * where no feature at all holds the centre, the block's fill (of the cell's square), if any.
 */
function expected(mixed: number, [lat, lng, row, col]: Cell): number {
  const { block } = places[mixed];
  let country = table.indexOfCountry(territoryOf(lat, lng) ?? '');
  const fill = table.fillOf(mixed);
  if (country < 0 && fill !== null && countryCoder.featuresContaining([lng, lat]).length === 0) {
    country = fill.squares === null ? fill.country : fill.squares[squareOf(row, col)];
  }
  const number = country < 0 ? -1 : table.blockNumber(table.mixedRun[mixed], country, block);
  return number < 0 ? NO_COVERAGE : pureEntry(country, number);
}

/** A cell's centre (lat, lng), then its row and column in the grid. */
type Cell = [number, number, number, number];

/** Cell (`row`, `col`) of mixed block `mixed`, clamped to a narrow last block. */
function cell(mixed: number, row: number, col: number): Cell {
  const { band, block } = places[mixed];
  const columns = table.columns[band];
  const r = band * BLOCK_SIZE + row;
  const c = Math.min(columns - 1, block * BLOCK_SIZE + col);
  return [rowCentre(r), colCentre(c, columns), r, c];
}

/** The mixed ids of the blocks that carry a fill. */
const filled = table.fills.map(({ band, block }) => entryMixed(table.entryAt(band, block)));

/**
 * Checks, on 5 000 random cells of the blocks `ids` (mixed ids), that the records give each cell
 * centre the entry the borders and fills say; returns what they gave, for the caller's own count.
 */
function sampleCells(ids: number[]): { entry: number; at: Cell }[] {
  const blocks = new MixedBlocks(table);
  const answers: { entry: number; at: Cell }[] = [];
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: ids.length - 1 }),
      fc.integer({ min: 0, max: BLOCK_SIZE - 1 }),
      fc.integer({ min: 0, max: BLOCK_SIZE - 1 }),
      (i, row, col) => {
        const at = cell(ids[i], row, col);
        const entry = blocks.entryAt(ids[i], ...at);
        expect(entry).toBe(expected(ids[i], at));
        answers.push({ entry, at });
      },
    ),
    { numRuns: 5_000 },
  );
  return answers;
}

describe('mixed blocks', () => {
  it('numbers every mixed block once', () => {
    expect(places.length).toBe(table.mixedRun.length);
    expect(places.every((place) => place !== undefined)).toBe(true);
  });

  it('gives a cell centre the entry of its country-coder territory, or none where that does not cover the block', () => {
    const answers = sampleCells(places.map((_, mixed) => mixed));
    // Most cells of mixed blocks are somebody's: the property is not met by answering "none".
    expect(answers.filter(({ entry }) => entry !== NO_COVERAGE).length).toBeGreaterThan(2_500);
  });

  it('gives a cell centre that no feature holds the fill of its block, or of its square', () => {
    expect(filled.length).toBeGreaterThan(4_000);
    const answers = sampleCells(filled);
    // Fill blocks are mostly sea outside every feature: many sampled cells take their country by fill.
    expect(answers.filter(({ entry, at }) => entry !== NO_COVERAGE && territoryOf(at[0], at[1]) === null).length).toBeGreaterThan(500);
  });

  it('keeps the records it built when its store grows', () => {
    const small = new MixedBlocks(table, 8);
    const fresh = new MixedBlocks(table);
    const sample = Array.from({ length: 300 }, (_, i) => Math.floor((i * places.length) / 300));
    const answers = (blocks: MixedBlocks): number[] =>
      sample.flatMap((mixed) => [0, 647, 1295].map((k) => blocks.entryAt(mixed, ...cell(mixed, k, k))));
    const first = answers(small);
    expect(small.size).toBeGreaterThan(8);
    expect(answers(small)).toEqual(first);
    expect(answers(fresh)).toEqual(first);
  });

  it('holds the records of all mixed blocks in under 48 MB', () => {
    const blocks = new MixedBlocks(table);
    places.forEach((_, mixed) => blocks.entryAt(mixed, ...cell(mixed, 0, 0)));
    // docs/code-format.md §9 gives the figure: about 40 MB, of which 8 MB are the fill squares.
    expect(blocks.size * Float64Array.BYTES_PER_ELEMENT).toBeLessThan(48e6);
  });
});
