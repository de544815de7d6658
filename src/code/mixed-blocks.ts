/**
 * Mixed blocks: the block entry of a point in a block that borders or the edge of coverage cross,
 * where the country of the cell centre decides (docs/code-format.md §9).
 *
 * The first point of a block builds the block's record of border-index.ts from the table's border
 * polygons; each polygon carries the pure entry of its country's block, or NO_COVERAGE when it answers
 * no code or its country's codes do not cover the block. Records live in one growing Float64Array, found through a per-mixed-id offset: a look-up is
 * a few adjacent reads, not the pointer hops of a map of objects and a look-up of the country by name.
 * The answer is a number like the block index's, so encode's code after it sees one type.
 *
 * A record starts with what a cell centre that no polygon holds gets (block-fills.ts): an entry, the
 * same for the whole block (NO_COVERAGE when the block has no fill), or, when negative, the distance
 * from the record's start to the block's SQUARES entries, one per fill square, after the polygons.
 *
 * Records are kept for good, as the table's borders never change at run time; if every one of the
 * 82 697 mixed blocks of format v1 were visited they would hold about 31 MB (a test bounds it).
 */
import { NO_FILL, squareOf } from './block-fills.ts';
import { BorderIndex, valueAt } from './border-index.ts';
import { NO_COVERAGE, pureEntry, type Coverage } from './coverage.ts';
import { BLOCK_SIZE, colWest, rowSouth } from './grid.ts';

/** Numbers the record store starts with; it doubles when full. */
const INITIAL_CAPACITY = 1 << 16;

export class MixedBlocks {
  private readonly borders: BorderIndex;
  /** Per border polygon, the index of its country in the table, or −1 where it answers no covered country. */
  private readonly polygonCountry: Int32Array;
  /** Per mixed id, 1 + the offset of its record in `records`; 0 until the block is first visited. */
  private readonly offsets: Uint32Array;
  private records: Float64Array;
  private used = 0;

  constructor(
    private readonly table: Coverage,
    capacity = INITIAL_CAPACITY,
  ) {
    if (table.borders === null) throw new Error(`table revision ${table.revision} has no border polygons: the border test needs revision 2 or later`);
    const { codes, code } = table.borders;
    this.borders = new BorderIndex(table.borders);
    this.polygonCountry = Int32Array.from(code, (c) => (c === 0 ? -1 : table.indexOfCountry(codes[c - 1])));
    this.offsets = new Uint32Array(table.mixedRun.length);
    this.records = new Float64Array(capacity);
  }

  /**
   * The entry of the cell at `row`, `col` of the grid, whose centre is (`lat`, `lng`), in mixed block
   * `mixed`: the pure entry of the country whose borders hold the centre, or of the block's fill where
   * no polygon holds it, or NO_COVERAGE.
   */
  entryAt(mixed: number, lat: number, lng: number, row: number, col: number): number {
    let offset = this.offsets[mixed] - 1;
    // Built before `records` is read: building may replace it with a larger array.
    if (offset < 0) offset = this.build(mixed, row, col);
    const records = this.records;
    const entry = valueAt(records, offset + 1, lat, lng, records[offset]);
    return entry >= 0 ? entry : records[offset - entry + squareOf(row, col)];
  }

  /** Numbers stored in records so far. */
  get size(): number {
    return this.used;
  }

  private build(mixed: number, row: number, col: number): number {
    const { table } = this;
    const run = table.mixedRun[mixed];
    const band = Math.floor(row / BLOCK_SIZE);
    const block = Math.floor(col / BLOCK_SIZE);
    const columns = table.columns[band];
    const firstRow = band * BLOCK_SIZE;
    const firstCol = block * BLOCK_SIZE;
    const entryOf = (country: number): number => (country === NO_FILL ? NO_COVERAGE : pureEntry(country, table.blockNumber(run, country, block)));
    const fill = table.fillOf(mixed);
    const record: number[] = [fill === null ? NO_COVERAGE : fill.squares === null ? entryOf(fill.country) : 0];
    this.borders.record(
      rowSouth(firstRow),
      rowSouth(firstRow + BLOCK_SIZE),
      colWest(firstCol, columns),
      colWest(Math.min(columns, firstCol + BLOCK_SIZE), columns),
      (polygon) => {
        const country = this.polygonCountry[polygon];
        const number = country < 0 ? -1 : table.blockNumber(run, country, block);
        return number < 0 ? NO_COVERAGE : pureEntry(country, number);
      },
      record,
    );
    if (fill?.squares) {
      record[0] = -record.length;
      for (const country of fill.squares) record.push(entryOf(country));
    }
    if (this.used + record.length > this.records.length) {
      const grown = new Float64Array(Math.max(2 * this.records.length, this.used + record.length));
      grown.set(this.records.subarray(0, this.used));
      this.records = grown;
    }
    const offset = this.used;
    this.records.set(record, offset);
    this.used += record.length;
    this.offsets[mixed] = offset + 1;
    return offset;
  }
}
