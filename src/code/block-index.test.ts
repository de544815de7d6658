import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Coverage } from './coverage.ts';
import { blocksInBand } from './grid.ts';
import { TABLE_URL, coverage } from './shipped-table.ts';
import { readTableFile } from './table-file.ts';

describe('the block index', () => {
  it('written band by band as bands are first read, gives the entries of the index written whole', () => {
    const prepared = coverage();
    const lazy = new Coverage(readTableFile(readFileSync(TABLE_URL)));
    let seed = 38;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    let mismatches = 0;
    // Bands in a random order, so a band written late still finds its slots where the others left them.
    for (let i = 0; i < 400; i++) {
      const band = Math.floor(next() * prepared.columns.length);
      const blocks = blocksInBand(prepared.columns[band]);
      for (let block = 0; block < blocks; block++) if (lazy.entryAt(band, block) !== prepared.entryAt(band, block)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it('works out fills and decode lists on first use exactly as a prepared table has them', () => {
    const prepared = coverage();
    const lazy = new Coverage(readTableFile(readFileSync(TABLE_URL)));
    expect(lazy.blockCounts).toEqual(prepared.blockCounts);
    for (let country = 0; country < prepared.countries.length; country += 7) {
      const last = prepared.blockCounts[country] - 1;
      expect(lazy.locateBlock(country, last)).toEqual(prepared.locateBlock(country, last));
      expect(lazy.locateBlock(country, last + 1)).toBeNull();
    }
  });
});
