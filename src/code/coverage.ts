/**
 * Coverage: which blocks each country's codes number, read from the frozen table file.
 *
 * A country's covered blocks, ordered by band then column, are numbered 0, 1, 2 …; that number is the
 * `BBBB` of a code. Runs of the table are already in that order, so one pass gives every run the
 * number of its first block for each country that covers it (its base).
 */
import { readFileSync } from 'node:fs';
import { readTableFile, type BlockClass, type TableData } from './table-file.ts';

/** The table of format v1, committed beside this module and never regenerated at run time. */
export const TABLE_URL = new URL('./tables/v1.bin', import.meta.url);

export class Coverage {
  readonly version: number;
  readonly columns: Uint32Array;
  readonly countries: readonly string[];
  readonly classes: readonly BlockClass[];
  private readonly countryIndex: Map<string, number>;
  private readonly runs: TableData['runs'];
  private readonly runBand: Uint16Array;
  /** Base of run r for the k-th member of its class: `bases[baseOffset[r] + k]`. */
  private readonly baseOffset: Uint32Array;
  private readonly bases: Uint32Array;
  /** Per country, its runs in order and their bases (`countryRuns[countryStart[c]] …`). */
  private readonly countryStart: Uint32Array;
  private readonly countryRuns: Uint32Array;
  private readonly countryBases: Uint32Array;
  /** Covered blocks per country. */
  readonly blockCounts: Uint32Array;

  constructor(data: TableData) {
    this.version = data.version;
    this.columns = data.columns;
    this.countries = data.countries;
    this.classes = data.classes;
    this.runs = data.runs;
    this.countryIndex = new Map(data.countries.map((code, i) => [code, i]));

    const { bandStart, length, cls } = data.runs;
    const runCount = length.length;
    this.runBand = new Uint16Array(runCount);
    for (let band = 0; band + 1 < bandStart.length; band++) this.runBand.fill(band, bandStart[band], bandStart[band + 1]);

    this.baseOffset = new Uint32Array(runCount + 1);
    for (let r = 0; r < runCount; r++) this.baseOffset[r + 1] = this.baseOffset[r] + data.classes[cls[r]].members.length;
    this.bases = new Uint32Array(this.baseOffset[runCount]);
    const countryRunCount = new Uint32Array(data.countries.length);
    this.blockCounts = new Uint32Array(data.countries.length);
    for (let r = 0; r < runCount; r++) {
      data.classes[cls[r]].members.forEach((country, k) => {
        this.bases[this.baseOffset[r] + k] = this.blockCounts[country];
        this.blockCounts[country] += length[r];
        countryRunCount[country]++;
      });
    }

    this.countryStart = new Uint32Array(data.countries.length + 1);
    for (let c = 0; c < data.countries.length; c++) this.countryStart[c + 1] = this.countryStart[c] + countryRunCount[c];
    this.countryRuns = new Uint32Array(this.countryStart[data.countries.length]);
    this.countryBases = new Uint32Array(this.countryRuns.length);
    const fill = this.countryStart.slice(0, -1);
    for (let r = 0; r < runCount; r++) {
      data.classes[cls[r]].members.forEach((country, k) => {
        this.countryRuns[fill[country]] = r;
        this.countryBases[fill[country]++] = this.bases[this.baseOffset[r] + k];
      });
    }
  }

  /** Index of a country in the table, or −1 when it has no coverage. */
  indexOfCountry(code: string): number {
    return this.countryIndex.get(code) ?? -1;
  }

  /** The run that holds block `block` of `band`, or −1 when no country covers the block. */
  runAt(band: number, block: number): number {
    const { bandStart, first, length } = this.runs;
    let lo = bandStart[band];
    let hi = bandStart[band + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (first[mid] <= block) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi >= bandStart[band] && block < first[hi] + length[hi] ? hi : -1;
  }

  classOf(run: number): BlockClass {
    return this.classes[this.runs.cls[run]];
  }

  /** The block number of `block` (in run `run`) among the blocks of `country`, or −1 if it covers none. */
  blockNumber(run: number, country: number, block: number): number {
    const k = this.classOf(run).members.indexOf(country);
    return k < 0 ? -1 : this.bases[this.baseOffset[run] + k] + block - this.runs.first[run];
  }

  /** Where the `number`-th block of `country` is, or null past its last block. */
  locateBlock(country: number, number: number): { band: number; block: number; run: number } | null {
    let lo = this.countryStart[country];
    let hi = this.countryStart[country + 1] - 1;
    const start = lo;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.countryBases[mid] <= number) lo = mid + 1;
      else hi = mid - 1;
    }
    if (hi < start) return null;
    const run = this.countryRuns[hi];
    const offset = number - this.countryBases[hi];
    if (offset >= this.runs.length[run]) return null;
    return { band: this.runBand[run], block: this.runs.first[run] + offset, run };
  }
}

let loaded: Coverage | undefined;

/** The coverage of format v1, read on first use. */
export function coverage(): Coverage {
  loaded ??= new Coverage(readTableFile(readFileSync(TABLE_URL)));
  return loaded;
}
