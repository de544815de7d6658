/**
 * The frozen table file of format v1 (docs/code-format.md §6): band column counts, the covered
 * countries, band by band the runs of blocks with the set of countries that cover them, from
 * revision 2 on the border polygons that decide the country of a cell centre in a mixed block, and from
 * revision 3 on the fills of the cells those polygons leave without a country (block-fills.ts).
 *
 * A reader refuses a format or a revision it does not know (§8): reading on would misread the file,
 * and a misread table hands out wrong codes.
 */
import { readFillSection, writeFillSection, type BlockFill } from './block-fills.ts';
import { readBorderSection, writeBorderSection, type BorderPolygons } from './border-polygons.ts';
import { ByteReader, ByteWriter } from './table-bytes.ts';
import { TABLE_MAGIC, readTableGrid } from './table-grid.ts';

export { FORMAT_VERSION, KNOWN_REVISIONS } from './table-grid.ts';

/** What a run of blocks is: the countries whose coverage holds it, and whether one country fills it. */
export interface BlockClass {
  /**
   * True when no country border crosses the block and one country holds all of it: every cell there
   * belongs to `members[0]` without a point-in-polygon test. False when borders cross it, or part of
   * it lies outside every country: each cell then needs the country lookup of its centre.
   */
  pure: boolean;
  /** Indexes into `countries`, ascending. */
  members: number[];
}

export interface TableData {
  /** The code format the table belongs to: 1. */
  version: number;
  /** The table's revision within its format (KNOWN_REVISIONS). */
  revision: number;
  /** Columns of each band, south to north. */
  columns: Uint32Array;
  /** Covered ISO codes, ascending. */
  countries: string[];
  classes: BlockClass[];
  /** Runs of covered blocks; those of band b are `bandStart[b]` … `bandStart[b + 1] − 1`, west to east. */
  runs: { bandStart: Uint32Array; first: Uint32Array; length: Uint32Array; cls: Uint32Array };
  /** The border polygons in test order; null in revision 1, which left the test to country-coder. */
  borders: BorderPolygons | null;
  /** The fills, in band order then block column; null before revision 3, which brought them. */
  fills: BlockFill[] | null;
}

/** The first revision with a fill section. */
const FILLS_FROM = 3;

export function writeTableFile(data: TableData): Uint8Array {
  const out = new ByteWriter();
  out.ascii(TABLE_MAGIC);
  out.uint(data.version);
  if (data.revision !== 1) out.uint(data.revision);
  out.uint(data.columns.length);
  for (const n of data.columns) out.uint(n);
  out.uint(data.countries.length);
  for (const code of data.countries) out.ascii(code);
  out.uint(data.classes.length);
  for (const cls of data.classes) {
    out.uint(cls.pure ? 1 : 0);
    out.uint(cls.members.length);
    for (const m of cls.members) out.uint(m);
  }
  const { bandStart, first, length, cls } = data.runs;
  for (let band = 0; band < data.columns.length; band++) {
    out.uint(bandStart[band + 1] - bandStart[band]);
    let next = 0;
    for (let r = bandStart[band]; r < bandStart[band + 1]; r++) {
      out.uint(first[r] - next);
      out.uint(length[r]);
      out.uint(cls[r]);
      next = first[r] + length[r];
    }
  }
  if ((data.revision === 1) !== (data.borders === null)) throw new Error('revision 1, and only it, has no border section');
  if (data.borders) writeBorderSection(data.borders, out);
  if ((data.revision >= FILLS_FROM) !== (data.fills !== null)) throw new Error(`revisions from ${FILLS_FROM} on, and only they, have a fill section`);
  if (data.fills) writeFillSection(data.fills, data.countries.length, data.columns, out);
  return out.bytes();
}

/**
 * Reads a table file. `lazy`: the border polygons and the fills, which only points in mixed blocks
 * need, are read on first use rather than now, and so are their checks, trailing bytes included: for
 * a reader whose bytes are already vouched for (loc-js/codec checks their SHA-256 first), so that
 * loading costs what encoding in pure blocks needs.
 */
export function readTableFile(bytes: Uint8Array, { lazy = false } = {}): TableData {
  const input = new ByteReader(bytes);
  const { version, revision, columns } = readTableGrid(input);
  const bands = columns.length;
  const countries = Array.from({ length: input.uint() }, () => input.ascii(2));
  const classes: BlockClass[] = Array.from({ length: input.uint() }, () => {
    const pure = input.uint() === 1;
    const members = Array.from({ length: input.uint() }, () => input.uint());
    return { pure, members };
  });

  const runs = readRuns(input, bands);
  let tail: Pick<TableData, 'borders' | 'fills'> | undefined;
  const readTail = (): Pick<TableData, 'borders' | 'fills'> => {
    if (tail === undefined) {
      const borders = revision === 1 ? null : readBorderSection(input);
      const fills = revision >= FILLS_FROM ? readFillSection(input, countries.length, columns) : null;
      input.end();
      tail = { borders, fills };
    }
    return tail;
  };
  if (!lazy) readTail();
  return {
    version,
    revision,
    columns,
    countries,
    classes,
    runs,
    get borders() {
      return readTail().borders;
    },
    get fills() {
      return readTail().fills;
    },
  };
}

/** The runs of every band, into typed arrays sized for the most runs the bytes left could hold (3 bytes each). */
function readRuns(input: ByteReader, bands: number): TableData['runs'] {
  const most = Math.ceil(input.remaining() / 3);
  const bandStart = new Uint32Array(bands + 1);
  const first = new Uint32Array(most);
  const length = new Uint32Array(most);
  const cls = new Uint32Array(most);
  let runs = 0;
  for (let band = 0; band < bands; band++) {
    const count = input.uint();
    if (runs + count > most) input.fail('more runs than bytes');
    let next = 0;
    for (let r = 0; r < count; r++, runs++) {
      first[runs] = next + input.uint();
      length[runs] = input.uint();
      cls[runs] = input.uint();
      next = first[runs] + length[runs];
    }
    bandStart[band + 1] = runs;
  }
  return { bandStart, first: first.slice(0, runs), length: length.slice(0, runs), cls: cls.slice(0, runs) };
}
