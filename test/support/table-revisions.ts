/**
 * The proof that a new revision of format v1's table moves no code (docs/code-format.md §8), written
 * once for every revision: src/code/revision.test.ts runs it for the shipped revision against the one
 * before it.
 *
 * Each check returns what it found wrong, as sentences, so a test expects an empty list and a failure
 * names the first places that differ. Old answers come from `referenceEncode`, a plain reading of
 * §2, §5, §7 and §10 over a revision's runs and fills, with the country of a mixed block's cell centre
 * given by the caller: country-coder for revision 1, `borderTest` on its own polygons for any later one.
 */
import { readFileSync } from 'node:fs';
import { addedBlocks, squareOf } from '../../src/code/block-fills.ts';
import type { BorderPolygons } from '../../src/code/border-polygons.ts';
import { Coverage, NO_COVERAGE, entryCountry, entryMixed, entryNumber, isPureEntry } from '../../src/code/coverage.ts';
import { formatCode } from '../../src/code/format.ts';
import { BLOCK_SIZE, bandOf, blocksInBand, colCentre, colOf, colWest, rowCentre, rowOf, rowSouth } from '../../src/code/grid.ts';
import { readTableFile, type TableData } from '../../src/code/table-file.ts';

/** A revision's table, as read and as indexed. */
export interface Revision {
  data: TableData;
  table: Coverage;
}

/**
 * The country of a cell centre in a mixed block: a territory code, or null for none, or undefined when
 * no polygon holds it at all (where a fill may give one; country-coder's null says no more than none).
 */
export type CountryOf = (lat: number, lng: number) => string | null | undefined;

/** At most this many differences are named; the count of the rest is given. */
const NAMED = 10;

export function loadRevision(url: URL): Revision {
  const data = readTableFile(readFileSync(url));
  return { data, table: new Coverage(data) };
}

/** Whether polygon `p` holds the point: its box, then the even–odd ray test of §4, exactly as written there. */
export function holds(polygons: BorderPolygons, p: number, lat: number, lng: number): boolean {
  const { boxes, polygonStart, ringStart, xs, ys } = polygons;
  if (!(boxes[4 * p] <= lng && lng <= boxes[4 * p + 2] && boxes[4 * p + 1] <= lat && lat <= boxes[4 * p + 3])) return false;
  let inside = false;
  for (let r = polygonStart[p]; r < polygonStart[p + 1]; r++) {
    const n = ringStart[r + 1] - ringStart[r];
    for (let j = 0; j < n; j++) {
      const i1 = ringStart[r] + j;
      const i2 = ringStart[r] + (j === 0 ? n - 1 : j - 1);
      const [x1, y1, x2, y2] = [xs[i1], ys[i1], xs[i2], ys[i2]];
      if (y1 > lat !== y2 > lat && lng < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) inside = !inside;
    }
  }
  return inside;
}

/**
 * The border test of §4 over every polygon: the code of the first that holds the point, null when
 * that polygon has no code, undefined when none holds it.
 */
export function borderTest(polygons: BorderPolygons, lat: number, lng: number): string | null | undefined {
  const { codes, code } = polygons;
  for (let p = 0; p < code.length; p++) if (holds(polygons, p, lat, lng)) return code[p] === 0 ? null : codes[code[p] - 1];
  return undefined;
}

/** The country index a revision's fill gives the cell at `row`, `col` of mixed block `mixed`, or −1. */
function fillCountry(table: Coverage, mixed: number, row: number, col: number): number {
  const fill = table.fillOf(mixed);
  return fill === null ? -1 : fill.squares === null ? fill.country : fill.squares[squareOf(row, col)];
}

/** Whether `revision` gives (`lat`, `lng`) its code by fill: a mixed block, no polygon at the centre, a fill there. */
export function byFill({ table }: Revision, countryOf: CountryOf, lat: number, lng: number): boolean {
  const row = rowOf(lat);
  const band = bandOf(row);
  const col = colOf(lng, table.columns[band]);
  const entry = table.entryAt(band, Math.floor(col / BLOCK_SIZE));
  if (isPureEntry(entry) || entry === NO_COVERAGE) return false;
  return countryOf(rowCentre(row), colCentre(col, table.columns[band])) === undefined && fillCountry(table, entryMixed(entry), row, col) >= 0;
}

/** The code of (`lat`, `lng`) under `revision`, or null where it has none (§7, read plainly). */
export function referenceEncode({ table }: Revision, countryOf: CountryOf, lat: number, lng: number): string | null {
  const row = rowOf(lat);
  const band = bandOf(row);
  const columns = table.columns[band];
  const col = colOf(lng, columns);
  const block = Math.floor(col / BLOCK_SIZE);
  const entry = table.entryAt(band, block);
  if (entry === NO_COVERAGE) return null;
  let country: number;
  let number: number;
  if (isPureEntry(entry)) {
    country = entryCountry(entry);
    number = entryNumber(entry);
  } else {
    const code = countryOf(rowCentre(row), colCentre(col, columns));
    country = code === undefined ? fillCountry(table, entryMixed(entry), row, col) : table.indexOfCountry(code ?? '');
    number = country < 0 ? -1 : table.blockNumber(table.mixedRun[entryMixed(entry)], country, block);
    if (number < 0) return null;
  }
  return formatCode({ country: table.countries[country], block: number, row: row % BLOCK_SIZE, col: col % BLOCK_SIZE });
}

/** The grid's bands and their widths must be the same. */
export function gridDifferences(old: TableData, next: TableData): string[] {
  if (old.columns.length !== next.columns.length) return [`${old.columns.length} bands became ${next.columns.length}`];
  const found: string[] = [];
  old.columns.forEach((n, band) => {
    if (next.columns[band] !== n) found.push(`band ${band}: ${n} columns became ${next.columns[band]}`);
  });
  return named(found);
}

/**
 * Each country's covered blocks, in numbering order, as ranges of consecutive blocks of one band:
 * [band, first, end) triples, runs that continue each other merged; the blocks its fills add after
 * them. Every country's in one pass over the runs and the fills.
 */
function blockRanges(data: TableData): number[][] {
  const { bandStart, first, length, cls } = data.runs;
  const ranges = data.countries.map((): number[] => []);
  const add = (country: number, band: number, start: number, end: number): void => {
    const own = ranges[country];
    const last = own.length - 3;
    if (last >= 0 && own[last] === band && own[last + 2] === start) own[last + 2] = end;
    else own.push(band, start, end);
  };
  const counts = data.countries.map(() => 0);
  for (let band = 0; band < data.columns.length; band++) {
    for (let r = bandStart[band]; r < bandStart[band + 1]; r++) {
      for (const m of data.classes[cls[r]].members) {
        counts[m] += length[r];
        add(m, band, first[r], first[r] + length[r]);
      }
    }
  }
  const membersAt = (band: number, block: number): number[] => {
    for (let r = bandStart[band]; r < bandStart[band + 1]; r++) if (first[r] <= block && block < first[r] + length[r]) return data.classes[cls[r]].members;
    return [];
  };
  for (const added of addedBlocks(data.fills ?? [], membersAt, counts)) add(added.country, added.band, added.block, added.block + 1);
  return ranges;
}

/** Each country's old list of covered blocks must be a prefix of its new list: no number moves. */
export function blockListDifferences(old: TableData, next: TableData): string[] {
  const found: string[] = [];
  const [oldRanges, nextRanges] = [blockRanges(old), blockRanges(next)];
  old.countries.forEach((code, country) => {
    const at = next.countries.indexOf(code);
    if (at < 0) {
      found.push(`${code} lost its coverage`);
      return;
    }
    const was = oldRanges[country];
    const now = nextRanges[at];
    let number = 0;
    for (let i = 0; i < was.length; i += 3) {
      const lastOld = i + 3 === was.length;
      const same = now[i] === was[i] && now[i + 1] === was[i + 1] && (lastOld ? now[i + 2] >= was[i + 2] : now[i + 2] === was[i + 2]);
      if (!same) {
        found.push(`${code}: from block ${number} on, band ${was[i]} blocks ${was[i + 1]}–${was[i + 2] - 1} became ${now[i] === undefined ? 'nothing' : `band ${now[i]} blocks ${now[i + 1]}–${now[i + 2] - 1}`}`);
        return;
      }
      number += was[i + 2] - was[i + 1];
    }
  });
  return named(found);
}

/** Cells the new revision gives a country by override (their centres) must have had no code before. */
export function overrideDifferences(old: Revision, countryOf: CountryOf, centres: readonly { lat: number; lng: number }[]): string[] {
  const found: string[] = [];
  for (const { lat, lng } of centres) {
    const code = referenceEncode(old, countryOf, lat, lng);
    if (code !== null) found.push(`the override at ${lat}, ${lng} takes over ${code}`);
  }
  return named(found);
}

/** Points where `next` answers otherwise than `old` did; `allowed` says where a new answer may differ. */
export function answerDifferences(
  points: readonly (readonly [number, number])[],
  old: (lat: number, lng: number) => string | null,
  next: (lat: number, lng: number) => string | null,
  allowed: (lat: number, lng: number) => boolean = () => false,
): string[] {
  const found: string[] = [];
  for (const [lat, lng] of points) {
    const was = old(lat, lng);
    const now = next(lat, lng);
    if (was !== now && !(was === null && allowed(lat, lng))) found.push(`${lat}, ${lng}: ${was ?? 'none'} became ${now ?? 'none'}`);
  }
  return named(found);
}

/** Band and block of each mixed id of a revision. */
export function mixedBlockPlaces({ table }: Revision): { band: number; block: number }[] {
  const places: { band: number; block: number }[] = [];
  for (let band = 0; band < table.columns.length; band++) {
    for (let block = 0; block < blocksInBand(table.columns[band]); block++) {
      const entry = table.entryAt(band, block);
      if (!isPureEntry(entry) && entry !== NO_COVERAGE) places[entryMixed(entry)] = { band, block };
    }
  }
  return places;
}

/** Bounds of block `block` of `band` in a revision's grid. */
export function blockBounds({ table }: Revision, band: number, block: number): { south: number; north: number; west: number; east: number } {
  const columns = table.columns[band];
  return {
    south: rowSouth(band * BLOCK_SIZE),
    north: rowSouth((band + 1) * BLOCK_SIZE),
    west: colWest(block * BLOCK_SIZE, columns),
    east: colWest(Math.min(columns, (block + 1) * BLOCK_SIZE), columns),
  };
}

function named(found: string[]): string[] {
  return found.length > NAMED ? [...found.slice(0, NAMED), `and ${found.length - NAMED} more`] : found;
}
