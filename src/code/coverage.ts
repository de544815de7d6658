/**
 * Coverage: which blocks each country's codes number, read from the frozen table file.
 *
 * A country's covered blocks, ordered by band then column, are numbered 0, 1, 2 …; that number is the
 * `BBBB` of a code. Runs of the table are already in that order, so one pass gives every run the
 * number of its first block for each country that covers it (its base). The blocks that fills add to a
 * country (block-fills.ts) follow its blocks in runs. Encode reads the block index (block-index.ts).
 */
import type { BorderPolygons } from './border-polygons.ts';
import { addedBlocks, type AddedBlock, type BlockFill } from './block-fills.ts';
import { BlockIndex, MAX_PACKED_COUNTRIES } from './block-index.ts';
import type { BlockClass, TableData } from './table-file.ts';

export { NO_COVERAGE, entryCountry, entryMixed, entryNumber, isPureEntry, pureEntry } from './block-index.ts';

export class Coverage {
  readonly version: number;
  readonly revision: number;
  /** The table as read; its border polygons and fills may be read only when first asked for (table-file.ts). */
  private readonly data: TableData;
  readonly columns: Uint32Array;
  readonly countries: readonly string[];
  /** The two character codes of each country's code, for writing codes without reading strings. */
  readonly countryChars: readonly number[];
  readonly classes: readonly BlockClass[];
  /**
   * Per pair of letters A–Z (26 × first + second), the country's index, or −1: decode's look-up of
   * a code's country by its two characters, without hashing a new string as a Map would.
   */
  private readonly countryIndex = new Int16Array(26 * 26).fill(-1);
  /** The table's runs, flattened into fields so the hot paths load one typed array each. */
  private readonly runFirstBlock: Uint32Array;
  private readonly runLength: Uint32Array;
  private readonly runClass: Uint32Array;
  private readonly runBand: Uint16Array;
  /** Runs of band b: bandStart[b] … bandStart[b + 1] − 1. */
  private readonly bandStart: Uint32Array;
  /** Base of run r for the k-th member of its class: `bases[baseOffset[r] + k]`. */
  private readonly baseOffset: Uint32Array;
  private readonly bases: Uint32Array;
  /** Per country, its runs in order and their bases: what decode searches, listed on its first call. */
  private countryRunList: CountryRuns | undefined;
  /** Covered blocks per country in the runs; a country's added blocks are numbered from here on. */
  private readonly runBlockCounts: Uint32Array;
  /** What the fills give, worked out the first time a fill or an added block is asked for. */
  private fillsGiven: FillIndex | undefined;
  /** Per run: 1 when one country fills it (decode then needs no border lookup). */
  readonly runPure: Uint8Array;
  /** Per run, its first member and that member's base: what a pure run's block entries hold. */
  private readonly runCountry: Uint32Array;
  private readonly runBase: Uint32Array;
  private readonly index: BlockIndex;
  /** Per run, the mixed id (block-index.ts) of its first block; the mixed blocks' count; per mixed id its run. */
  private readonly runMixedBase: Uint32Array;
  private readonly mixedCount: number;
  private mixedRuns: Uint32Array | undefined;

  constructor(data: TableData) {
    this.version = data.version;
    this.revision = data.revision;
    this.data = data;
    this.columns = data.columns;
    this.countries = data.countries;
    this.countryChars = data.countries.flatMap((code) => [code.charCodeAt(0), code.charCodeAt(1)]);
    this.classes = data.classes;
    this.runFirstBlock = data.runs.first;
    this.runLength = data.runs.length;
    this.runClass = data.runs.cls;
    data.countries.forEach((code, i) => {
      if (!/^[A-Z]{2}$/.test(code)) throw new Error(`table file: country ${JSON.stringify(code)} is not two letters A–Z`);
      this.countryIndex[26 * (code.charCodeAt(0) - 65) + code.charCodeAt(1) - 65] = i;
    });

    if (data.countries.length > MAX_PACKED_COUNTRIES) throw new Error(`The block index packs at most ${MAX_PACKED_COUNTRIES} countries.`);
    const { bandStart, first, length } = data.runs;
    const runCount = length.length;
    this.bandStart = bandStart;
    this.runBand = new Uint16Array(runCount);
    for (let band = 0; band + 1 < bandStart.length; band++) this.runBand.fill(band, bandStart[band], bandStart[band + 1]);
    this.baseOffset = new Uint32Array(runCount + 1);
    this.bases = new Uint32Array(runCount * Math.max(1, ...data.classes.map((cl) => cl.members.length)));
    this.runPure = new Uint8Array(runCount);
    this.runCountry = new Uint32Array(runCount);
    this.runBase = new Uint32Array(runCount);
    this.runMixedBase = new Uint32Array(runCount);
    const { blockCounts, mixedCount } = this.numberBlocks(data);
    this.mixedCount = mixedCount;
    const { runPure: pure, runCountry: country, runBase: base, runMixedBase: mixedBase } = this;
    this.index = new BlockIndex({ columns: data.columns, bandStart, first, length, pure, country, base, mixedBase });

    this.runBlockCounts = blockCounts;
  }

  /**
   * One pass over the runs, as loading the table is mostly this: numbers each country's blocks (the
   * base of each run for each member), and keeps what the block index reads of each run.
   */
  private numberBlocks(data: TableData): { blockCounts: Uint32Array; mixedCount: number } {
    const { length, cls } = data.runs;
    const blockCounts = new Uint32Array(data.countries.length);
    let mixedCount = 0;
    for (let r = 0; r < length.length; r++) {
      const { members, pure } = data.classes[cls[r]];
      const offset = this.baseOffset[r];
      for (let k = 0; k < members.length; k++) {
        this.bases[offset + k] = blockCounts[members[k]];
        blockCounts[members[k]] += length[r];
      }
      this.baseOffset[r + 1] = offset + members.length;
      this.runPure[r] = pure ? 1 : 0;
      this.runCountry[r] = members[0];
      this.runBase[r] = this.bases[offset];
      this.runMixedBase[r] = mixedCount;
      if (!pure) mixedCount += length[r];
    }
    return { blockCounts, mixedCount };
  }

  /** Per mixed id (block-index.ts), the run of that block. */
  get mixedRun(): Uint32Array {
    if (this.mixedRuns === undefined) {
      this.mixedRuns = new Uint32Array(this.mixedCount);
      for (let r = 0; r < this.runPure.length; r++) if (this.runPure[r] === 0) this.mixedRuns.fill(r, this.runMixedBase[r], this.runMixedBase[r] + this.runLength[r]);
    }
    return this.mixedRuns;
  }

  /** The border polygons that decide mixed blocks; null in revision 1. */
  get borders(): BorderPolygons | null {
    return this.data.borders;
  }

  /** The fills of the table (revision 3 on), in band order then block column. */
  get fills(): readonly BlockFill[] {
    return this.data.fills ?? [];
  }

  /** Covered blocks per country, those added by fills included. */
  get blockCounts(): Uint32Array {
    return this.fillsWorkedOut().blockCounts;
  }

  /** Ties each fill to its mixed block, and numbers the blocks fills add to a country after its own. */
  private fillsWorkedOut(): FillIndex {
    if (this.fillsGiven !== undefined) return this.fillsGiven;
    const mixedFill = new Int32Array(this.mixedCount).fill(-1);
    this.fills.forEach(({ band, block }, i) => {
      const run = this.runAt(band, block);
      if (run < 0 || this.runPure[run] === 1) throw new Error(`table file: the fill of band ${band} block ${block} is not in a mixed block`);
      mixedFill[this.runMixedBase[run] + block - this.runFirstBlock[run]] = i;
    });
    const index: FillIndex = { mixedFill, added: this.countries.map(() => []), addedNumbers: new Map(), blockCounts: this.runBlockCounts.slice() };
    const membersAt = (band: number, block: number): number[] => this.classOf(this.runAt(band, block)).members;
    for (const added of addedBlocks(this.fills, membersAt, this.runBlockCounts)) {
      index.added[added.country].push(added);
      index.addedNumbers.set(addedKey(added.band, added.block, added.country), added.number);
      index.blockCounts[added.country]++;
    }
    this.fillsGiven = index;
    return index;
  }

  /** Each country's runs in order, with their bases, for decode's search. */
  private listCountryRuns(): CountryRuns {
    const countries = this.countries.length;
    const start = new Uint32Array(countries + 1);
    for (let r = 0; r < this.runClass.length; r++) for (const c of this.classOf(r).members) start[c + 1]++;
    for (let c = 0; c < countries; c++) start[c + 1] += start[c];
    const runs = new Uint32Array(start[countries]);
    const bases = new Uint32Array(runs.length);
    const next = start.slice(0, -1);
    for (let r = 0; r < this.runClass.length; r++) {
      const members = this.classOf(r).members;
      for (let k = 0; k < members.length; k++) {
        runs[next[members[k]]] = r;
        bases[next[members[k]]++] = this.bases[this.baseOffset[r] + k];
      }
    }
    return { start, runs, bases };
  }

  /** The run of band `band` that holds block `block`, or −1 where no run does. */
  private runAt(band: number, block: number): number {
    let lo = this.bandStart[band];
    let hi = this.bandStart[band + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.runFirstBlock[mid] > block) hi = mid - 1;
      else if (this.runFirstBlock[mid] + this.runLength[mid] <= block) lo = mid + 1;
      else return mid;
    }
    return -1;
  }

  /** Index of a country in the table, or −1 when it has no coverage. */
  indexOfCountry(code: string): number {
    const first = code.charCodeAt(0) - 65;
    const second = code.charCodeAt(1) - 65;
    return code.length === 2 && first >= 0 && first < 26 && second >= 0 && second < 26 ? this.countryIndex[26 * first + second] : -1;
  }

  /** The block index entry of block `block` of `band` (block-index.ts). Encode's one table read. */
  entryAt(band: number, block: number): number {
    return this.index.entryAt(band, block);
  }

  /**
   * Works everything out now — the whole block index, the fills, decode's lists — so that no request
   * pays for a first use: what a server does at start. A browser leaves it to first use.
   */
  prepare(): void {
    this.index.writeAll();
    this.fillsWorkedOut();
    this.countryRunList ??= this.listCountryRuns();
  }

  classOf(run: number): BlockClass {
    return this.classes[this.runClass[run]];
  }

  /** The block number of `block` (in run `run`) among the blocks of `country`, or −1 if it covers none. */
  blockNumber(run: number, country: number, block: number): number {
    const k = this.classOf(run).members.indexOf(country);
    if (k >= 0) return this.bases[this.baseOffset[run] + k] + block - this.runFirstBlock[run];
    return this.fillsWorkedOut().addedNumbers.get(addedKey(this.runBand[run], block, country)) ?? -1;
  }

  /** The fill of mixed block `mixed`, or null. */
  fillOf(mixed: number): BlockFill | null {
    const i = this.fillsWorkedOut().mixedFill[mixed];
    return i < 0 ? null : this.fills[i];
  }

  /** Where the `number`-th block of `country` is, or null past its last block. */
  locateBlock(country: number, number: number): { band: number; block: number; run: number } | null {
    if (number >= this.runBlockCounts[country]) {
      const added = this.fillsWorkedOut().added[country][number - this.runBlockCounts[country]];
      return added === undefined ? null : { band: added.band, block: added.block, run: this.runAt(added.band, added.block) };
    }
    const list = (this.countryRunList ??= this.listCountryRuns());
    let lo = list.start[country];
    let hi = list.start[country + 1] - 1;
    const start = lo;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (list.bases[mid] <= number) lo = mid + 1;
      else hi = mid - 1;
    }
    if (hi < start) return null;
    const run = list.runs[hi];
    const offset = number - list.bases[hi];
    if (offset >= this.runLength[run]) return null;
    return { band: this.runBand[run], block: this.runFirstBlock[run] + offset, run };
  }
}

/** Per country (`runs[start[c]] …`), its runs in order and the number of each run's first block. */
interface CountryRuns {
  start: Uint32Array;
  runs: Uint32Array;
  bases: Uint32Array;
}

/** What the fills give: per mixed id the index of its fill or −1; per country its added blocks. */
interface FillIndex {
  mixedFill: Int32Array;
  added: AddedBlock[][];
  /** The number of an added block for its country, by addedKey. */
  addedNumbers: Map<number, number>;
  blockCounts: Uint32Array;
}

/** The key of `country`'s number for an added block. */
const addedKey = (band: number, block: number, country: number): number => ((band << 14) + block) * MAX_PACKED_COUNTRIES + country;
