/**
 * The second implementation of format v1 (ports/python/loc_code.py, Python's standard library,
 * written from docs/code-format.md alone) gives the answers this codec gives: on every golden row, on
 * random points (many in mixed blocks, where the border test of §4 decides, where polygons overlap,
 * where their order decides, and in fill blocks, where §10's fills decide), on random codes and codes
 * of added blocks, on the neighbours of golden and random cells (§7), and on every BMP code point as
 * white space or separator. If python3 is missing, these tests fail: the claim that the document is
 * enough to implement the format is only as good as this check.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { blockBounds, borderTest, holds, mixedBlockPlaces } from '../../test/support/table-revisions.ts';
import { seededRandom } from '../../test/support/seeded-random.ts';
import { LocError } from '../errors.ts';
import { decode, encode } from './codec.ts';
import { neighbours } from './codec.ts';
import { Coverage } from './coverage.ts';
import { TABLE_URL, coverage } from './shipped-table.ts';
import { formatCode } from './format.ts';
import { normalizeCode } from './spelling.ts';
import { BLOCK_SIZE, bandOf, blocksInBand, colCentre, rowCentre } from './grid.ts';
import { NEIGHBOUR_DIRECTIONS, neighbourCell, type GridCell } from './neighbours.ts';
import { readTableFile } from './table-file.ts';

const PORT = fileURLToPath(new URL('../../ports/python/loc_code.py', import.meta.url));
const TABLE = fileURLToPath(TABLE_URL);
const GOLDEN = fileURLToPath(new URL('./golden-v1.csv', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'loc-python-port-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the Python implementation; a missing python3 fails the test that asked. */
function python(args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('python3', [PORT, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.error) throw new Error(`python3 could not be run (${result.error.message}): the Python implementation cannot be checked`);
  return result;
}

/** What the TypeScript codec answers: the value, or the error's code. */
function answer<T>(work: () => T): T | string {
  try {
    return work();
  } catch (error) {
    if (error instanceof LocError) return error.code;
    throw error;
  }
}


const table = coverage();
const shipped = { data: readTableFile(readFileSync(TABLE_URL)), table };
/** Each country's blocks before the fills added any: the table read as revision 2. */
const blockCountsInRuns = new Coverage({ ...shipped.data, revision: 2, fills: null }).blockCounts;

describe('the Python implementation of docs/code-format.md', () => {
  it('runs on this machine', () => {
    const version = spawnSync('python3', ['--version'], { encoding: 'utf8' });
    expect(version.error, 'python3 must be installed for npm test').toBeUndefined();
    expect(version.stdout).toMatch(/^Python 3\./);
  });

  it('answers every golden row both ways, unsupported rows included', () => {
    const rows = readFileSync(GOLDEN, 'utf8').trim().split('\n').length - 1;
    const { status, stdout } = python(['golden', TABLE, GOLDEN]);
    expect(stdout).toBe(`golden: ${rows} rows, 0 failed\n`);
    expect(status).toBe(0);
  });

  it('encodes random points as the codec does: in mixed blocks, anywhere, near land, and where polygons overlap', () => {
    const next = seededRandom(7);
    const places = mixedBlockPlaces(shipped);
    const points: [number, number][] = [];
    for (let i = 0; i < 1500; i++) {
      const { band, block } = places[Math.floor(next() * places.length)];
      const { south, north, west, east } = blockBounds(shipped, band, block);
      points.push([south + (north - south) * next(), west + (east - west) * next()]);
      points.push([-60 + 144 * next(), -180 + 360 * next()]);
      const [lat, lng] = encodeSomewhere(next);
      points.push([lat, lng]);
    }
    // Where two polygons overlap, their order decides: Canada's and Saint Pierre and Miquelon's do,
    // at sea south-west of the islands, and Canada's comes first.
    const borders = shipped.data.borders!;
    const pm = borders.code.findIndex((c) => c > 0 && borders.codes[c - 1] === 'PM');
    const [minX, minY, maxX, maxY] = borders.boxes.subarray(4 * pm, 4 * pm + 4);
    let overlap = 0;
    for (let i = 0; i < 1000; i++) {
      const lat = minY + (maxY - minY) * next();
      const lng = minX + (maxX - minX) * next();
      if (holds(borders, pm, lat, lng) && answer(() => encode(lat, lng).country_code) === 'CA') overlap++;
      points.push([lat, lng]);
    }
    expect(overlap).toBeGreaterThan(10);
    // Fill blocks, where a cell centre that no polygon holds takes the block's fill (§10).
    let byFill = 0;
    for (let i = 0; i < 1500; i++) {
      const { band, block } = table.fills[Math.floor(next() * table.fills.length)];
      const { south, north, west, east } = blockBounds(shipped, band, block);
      const [lat, lng] = [south + (north - south) * next(), west + (east - west) * next()];
      if (answer(() => encode(lat, lng)) !== 'unsupported_location' && borderTest(borders, lat, lng) === undefined) byFill++;
      points.push([lat, lng]);
    }
    expect(byFill).toBeGreaterThan(300);
    const { status, stdout } = python(['encode', TABLE], points.map(([lat, lng]) => `${lat} ${lng}\n`).join(''));
    expect(status).toBe(0);
    const theirs = stdout.trim().split('\n');
    const ours = points.map(([lat, lng]) => answer(() => encode(lat, lng).loc_code));
    expect(theirs.length).toBe(points.length);
    expect(points.filter((_, i) => theirs[i] !== ours[i]).slice(0, 10)).toEqual([]);
    expect(ours.filter((code) => code.length === 12).length).toBeGreaterThan(points.length / 2);
  });

  it('decodes random codes as the codec does, codes that name no cell included', () => {
    const next = seededRandom(8);
    const codes: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const country = Math.floor(next() * table.countries.length);
      const block = Math.floor(next() * (table.blockCounts[country] + 2));
      codes.push(formatCode({ country: table.countries[country], block, row: Math.floor(next() * 1296), col: Math.floor(next() * 1296) }));
    }
    // A cell of a mixed block under each of its block's countries: it exists under one at most.
    const basel = encode(47.5596, 7.5886).loc_code;
    codes.push(basel, `FR${basel.slice(2)}`, `DE${basel.slice(2)}`, 'fr0rmbcly0', ' FR 0RMB CLY0 ', 'FR--0RMB-CLY0', 'ZZ-0000-0000');
    // Codes of the last blocks of countries that fills added blocks to (§5), and just past them.
    const added = table.countries.filter((_, c) => table.blockCounts[c] > blockCountsInRuns[c]);
    expect(added.length).toBeGreaterThan(20);
    for (const code of added) {
      const c = table.indexOfCountry(code);
      for (let block = blockCountsInRuns[c] - 1; block <= table.blockCounts[c]; block++) {
        for (let k = 0; k < 40; k++) codes.push(formatCode({ country: code, block, row: Math.floor(next() * 1296), col: Math.floor(next() * 1296) }));
      }
    }
    const { status, stdout } = python(['decode', TABLE], codes.map((code) => `${JSON.stringify(code)}\n`).join(''));
    expect(status).toBe(0);
    const theirs = stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);
    const ours = codes.map((code) => answer(() => decode(code)));
    expect(theirs).toEqual(ours);
    expect(ours.filter((cell) => typeof cell === 'object').length).toBeGreaterThan(1500);
    expect(ours.filter((cell) => cell === 'code_not_found').length).toBeGreaterThan(100);
  });

  it("gives each cell's neighbours as the codec does: golden rows, band edges, the antimeridian, near the poles, coasts, borders", () => {
    const golden = readFileSync(GOLDEN, 'utf8').trim().split('\n').slice(1).map((line) => line.split(',')[3]).filter((code) => code !== '');
    const cases = neighbourCases(seededRandom(9));
    const codes = [...golden, ...Object.values(cases).flat(), 'FR-0RMB', 'ZZ-0000-0000', 'FR-ZZZZ-0000'];
    const { status, stdout } = python(['neighbours', TABLE], codes.map((code) => `${JSON.stringify(code)}\n`).join(''));
    expect(status).toBe(0);
    const theirs = stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);
    const ours = codes.map((code) => answer(() => neighbours(code)));
    expect(theirs.length).toBe(codes.length);
    expect(codes.filter((_, i) => !isDeepStrictEqual(theirs[i], ours[i])).slice(0, 10)).toEqual([]);
    expect(ours.slice(-3)).toEqual(['invalid_code', 'code_not_found', 'code_not_found']);
    expect(Object.keys(theirs[0] as object)).toEqual([...NEIGHBOUR_DIRECTIONS]);
    expect(golden.length).toBeGreaterThan(300);
    // Each kind of place is there, and the neighbours cross what the kind is about.
    const found = (kind: keyof typeof cases) => cases[kind].map((code) => neighbours(code));
    expect(found('bandEdge').filter(({ n, s }) => n !== null && s !== null).length).toBeGreaterThan(200);
    expect(cases.antimeridian.length).toBeGreaterThan(50);
    expect(found('antimeridian').filter(({ e, w }) => e !== null && w !== null).length).toBeGreaterThan(20);
    expect(cases.north.filter((code) => decode(code).latitude > 80).length).toBeGreaterThan(30);
    expect(cases.south.filter((code) => decode(code).latitude < -50).length).toBeGreaterThan(30);
    expect(found('coverageEdge').filter((near) => Object.values(near).includes(null)).length).toBeGreaterThan(60);
    const borders = found('border').map((near, i) => Object.values(near).filter((code) => code !== null && code.slice(0, 2) !== cases.border[i].slice(0, 2)));
    expect(borders.filter((others) => others.length > 0).length).toBeGreaterThan(50);
  });

  it('normalises as the codec does, every BMP code point as padding and as separator', () => {
    const inputs: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      inputs.push(`${ch}fr-0rmb-cly0${ch}`, `FR${ch}0RMB${ch}CLY0`, `F${ch}-0RMB-CLY0`);
    }
    inputs.push('FR0RMBCLY0', 'FR-0RMB-CLY', 'FR-0RMB-CLY00', 'ﬁ-0RMB-CLY0', 'x'.repeat(100), '\u{1F600}FR-0RMB-CLY0');
    const { status, stdout } = python(['normalize'], inputs.map((input) => `${JSON.stringify(input)}\n`).join(''));
    expect(status).toBe(0);
    const theirs = stdout.trim().split('\n').map((line) => JSON.parse(line) as string | null);
    const differ = inputs.filter((input, i) => theirs[i] !== normalizeCode(input));
    expect(differ.map((input) => [...input].map((ch) => ch.codePointAt(0)!.toString(16)).join(' '))).toEqual([]);
  });

  it('refuses a table whose revision it does not know, and revision 1', () => {
    const bytes = readFileSync(TABLE_URL);
    expect([...bytes.subarray(4, 6)]).toEqual([1, 3]);
    const unknown = join(scratch, 'revision-4.bin');
    writeFileSync(unknown, Uint8Array.from(bytes, (b, i) => (i === 5 ? 4 : b)));
    const refused = python(['golden', unknown, GOLDEN]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe('table file: revision 4 of format 1 is not one this reader knows (it reads revisions 2, 3) at byte 6\n');
    const revision1 = python(['golden', fileURLToPath(new URL('./tables/v1.bin', import.meta.url)), GOLDEN]);
    expect(revision1.status).toBe(1);
    expect(revision1.stderr).toMatch(/^table file: revision 5148 of format 1 is not one this reader knows \(revision 1 has no border polygons\)/);
    const otherFormat = join(scratch, 'format-2.bin');
    writeFileSync(otherFormat, Uint8Array.from(bytes, (b, i) => (i === 4 ? 2 : b)));
    expect(python(['golden', otherFormat, GOLDEN]).stderr).toBe('table file: format 2 is not one this reader knows (it reads format 1) at byte 5\n');
  });
});

/** A covered block of the shipped table. */
interface CoveredBlock {
  band: number;
  block: number;
}

/**
 * Codes of seeded cells for the neighbours' cross-check, by the place that tests the definition: the
 * first and last rows of bands, the first and last columns (either side of 180°), the northernmost and
 * southernmost covered bands, the first and last columns of runs of covered blocks (where coverage
 * ends at sea, or another run begins), and the last cell of a country's codes on a walk from a cell of
 * a mixed block (a border, or the edge of its polygon at sea). Cells without a code are dropped.
 */
function neighbourCases(next: () => number): Record<'bandEdge' | 'antimeridian' | 'north' | 'south' | 'coverageEdge' | 'border', string[]> {
  const { columns, runs, classes } = shipped.data;
  const lastBlock = (band: number) => blocksInBand(columns[band]) - 1;
  const all: number[] = [];
  const atEdge: CoveredBlock[] = [];
  const mixedRuns: number[] = [];
  const bandOfRun: number[] = [];
  for (let band = 0; band < columns.length; band++) {
    for (let run = runs.bandStart[band]; run < runs.bandStart[band + 1]; run++) {
      all.push(run);
      bandOfRun[run] = band;
      if (!classes[runs.cls[run]].pure) mixedRuns.push(run);
      if (runs.first[run] === 0) atEdge.push({ band, block: 0 });
      if (runs.first[run] + runs.length[run] - 1 === lastBlock(band)) atEdge.push({ band, block: lastBlock(band) });
    }
  }
  const bands = [...new Set(bandOfRun.filter((band) => band !== undefined))];
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const inRun = (run: number): CoveredBlock => ({ band: bandOfRun[run], block: runs.first[run] + Math.floor(next() * runs.length[run]) });
  const northRuns = all.filter((run) => bandOfRun[run] >= bands.at(-4)!);
  const southRuns = all.filter((run) => bandOfRun[run] <= bands[3]);
  const edgeRow = () => (next() < 0.5 ? 0 : BLOCK_SIZE - 1);
  const sample = (count: number, draw: () => string | null) => Array.from({ length: count }, draw).filter((code) => code !== null);
  /** The cell of (band, block) at `rowIn` and `col`, each at random unless given. */
  const cellOf = ({ band, block }: CoveredBlock, rowIn?: number, col?: number): GridCell => ({
    row: band * BLOCK_SIZE + (rowIn ?? Math.floor(next() * BLOCK_SIZE)),
    col: col ?? block * BLOCK_SIZE + Math.floor(next() * Math.min(BLOCK_SIZE, columns[band] - block * BLOCK_SIZE)),
  });
  return {
    bandEdge: sample(400, () => codeOfCell(cellOf(inRun(pick(all)), edgeRow()))),
    antimeridian: sample(300, () => {
      const place = pick(atEdge);
      return codeOfCell(cellOf(place, next() < 0.2 ? edgeRow() : undefined, place.block === 0 ? 0 : columns[place.band] - 1));
    }),
    north: sample(150, () => codeOfCell(cellOf(inRun(pick(northRuns))))),
    south: sample(150, () => codeOfCell(cellOf(inRun(pick(southRuns))))),
    coverageEdge: sample(300, () => {
      const run = pick(all);
      const col = next() < 0.5 ? runs.first[run] * BLOCK_SIZE : Math.min(columns[bandOfRun[run]], (runs.first[run] + runs.length[run]) * BLOCK_SIZE) - 1;
      return codeOfCell(cellOf({ band: bandOfRun[run], block: Math.floor(col / BLOCK_SIZE) }, undefined, col));
    }),
    border: sample(300, () => {
      const [east, north] = pick([[1, 0], [-1, 0], [0, 1], [0, -1]] as const);
      return lastOfCountry(cellOf(inRun(pick(mixedRuns))), east, north);
    }),
  };
}

/** The code of a cell, or null where it has none. */
function codeOfCell({ row, col }: GridCell): string | null {
  const code = answer(() => encode(rowCentre(row), colCentre(col, table.columns[bandOf(row)])).loc_code);
  return code.length === 12 ? code : null;
}

/** From a cell with a code, the last cell of its country a walk of up to a block's cells reaches. */
function lastOfCountry(cell: GridCell, east: number, north: number): string | null {
  let code = codeOfCell(cell);
  for (let step = 0; code !== null && step < BLOCK_SIZE; step++) {
    const next = neighbourCell(cell, east, north, table.columns);
    const nextCode = next && codeOfCell(next);
    if (next === null || nextCode === null || nextCode.slice(0, 2) !== code.slice(0, 2)) return code;
    [cell, code] = [next, nextCode];
  }
  return null;
}

/** A point within 2 km of a populated place that has a code. */
function encodeSomewhere(next: () => number): [number, number] {
  for (;;) {
    const lat = -55 + 125 * next();
    const lng = -180 + 360 * next();
    if (answer(() => encode(lat, lng)) !== 'unsupported_location') return [lat, lng];
  }
}
