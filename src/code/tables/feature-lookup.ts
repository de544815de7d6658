/**
 * Which country-coder feature holds a point, for the gap scan: the border test of the table's
 * polygons (border-index.ts; country-coder's answer, bit for bit), one record per block, kept while
 * the scan stays near it. A point is either in a feature with a territory code, in one without (Bir
 * Tawil), or in none.
 */
import { BorderIndex, valueAt } from '../border-index.ts';
import type { BorderPolygons } from '../border-polygons.ts';
import type { Coverage } from '../coverage.ts';
import { BLOCK_SIZE, colWest, rowSouth } from '../grid.ts';

/** The answer for a point in no feature. */
export const NO_FEATURE = -1;
/** The answer for a point in a feature without a territory code (Bir Tawil). */
export const UNCODED_FEATURE = -2;

/** Records kept before the cache starts over: the scan walks coastlines, so recent blocks recur. */
const CACHE_LIMIT = 20_000;

export class FeatureLookup {
  private readonly borders: BorderIndex;
  private readonly polygons: BorderPolygons;
  private readonly columns: Uint32Array;
  readonly codes: string[] = [];
  private readonly codeIndex = new Map<string, number>();
  private readonly records = new Map<number, Float64Array>();

  constructor(table: Coverage) {
    if (table.borders === null) throw new Error(`table revision ${table.revision} has no border polygons`);
    this.polygons = table.borders;
    this.borders = new BorderIndex(table.borders);
    this.columns = table.columns;
  }

  /**
   * The index in `codes` of the territory code at (`lat`, `lng`), a point of block `block` of
   * `band`, or NO_FEATURE, or UNCODED_FEATURE.
   */
  at(band: number, block: number, lat: number, lng: number): number {
    const key = band * 16384 + block;
    let record = this.records.get(key);
    if (!record) {
      if (this.records.size >= CACHE_LIMIT) this.records.clear();
      record = this.build(band, block);
      this.records.set(key, record);
    }
    return valueAt(record, 0, lat, lng, NO_FEATURE);
  }

  private build(band: number, block: number): Float64Array {
    const n = this.columns[band];
    const out: number[] = [];
    this.borders.record(
      rowSouth(band * BLOCK_SIZE),
      rowSouth((band + 1) * BLOCK_SIZE),
      colWest(block * BLOCK_SIZE, n),
      colWest(Math.min(n, (block + 1) * BLOCK_SIZE), n),
      (polygon) => {
        const code = this.polygons.code[polygon];
        return code === 0 ? UNCODED_FEATURE : this.indexOf(this.polygons.codes[code - 1]);
      },
      out,
    );
    return Float64Array.from(out);
  }

  private indexOf(code: string): number {
    let index = this.codeIndex.get(code);
    if (index === undefined) this.codeIndex.set(code, (index = this.codes.push(code) - 1));
    return index;
  }
}
