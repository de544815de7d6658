/**
 * Coverage: which blocks each country's codes number, read from the frozen table file.
 *
 * A country's covered blocks, ordered by band then column, are numbered 0, 1, 2 …; that number is the
 * `BBBB` of a code. Runs of the table are already in that order, so one pass gives every run the
 * number of its first block for each country that covers it (its base). The blocks that fills add to a
 * country (block-fills.ts) follow its blocks in runs.
 */
import { blocksInBand } from './grid.ts';
import type { BorderPolygons } from './border-polygons.ts';
import { addedBlocks, type AddedBlock, type BlockFill } from './block-fills.ts';
import { readTableFile, type BlockClass, type TableData } from './table-file.ts';

/** Blocks per group of the block index: 32. */
const GROUP_SHIFT = 5;
const GROUP_MASK = (1 << GROUP_SHIFT) - 1;

/**
 * The block index that encode reads, built at load time in two levels. A block's entry is one of:
 * - a pure entry (this bit set): one country fills the block's run, and the entry holds that country
 *   and the block's number, so encode needs nothing else;
 * - NO_COVERAGE: no country covers the block;
 * - otherwise a mixed entry, the block's mixed id + 1: borders or the edge of coverage cross the
 *   block, and the country of the cell centre decides (mixed-blocks.ts). Mixed ids number the mixed
 *   blocks 0, 1, 2 … in table order, so per-block data can live in flat arrays instead of a map.
 *
 * The first level has one entry per group of 32 blocks of a band. When one pure run holds the whole
 * group, that entry is the pure entry of the group's first block, and the entry of a block in it is
 * that plus the block's place in the group (a number plus at most 31 stays below 2²¹). Otherwise the
 * first-level entry is a slot of 32 block entries in the second level; groups that no country touches
 * share slot 0, which is all NO_COVERAGE. So every block is one or two reads away, the second read
 * only near coasts and borders (docs/code-format.md §9).
 */
const PURE_ENTRY = 0x8000_0000;
/** Bits of a pure entry: the block number below, the country above (21 + 10 < 31). */
const NUMBER_BITS = 21;
const NUMBER_MASK = (1 << NUMBER_BITS) - 1;
const MAX_PACKED_COUNTRIES = 1 << 10;
/** The entry of a block that no country covers. */
export const NO_COVERAGE = 0;

/** True when a block entry is pure: one country, its number known. */
export const isPureEntry = (entry: number): boolean => entry >= PURE_ENTRY;
/** Country index of a pure entry. */
export const entryCountry = (entry: number): number => (entry & ~PURE_ENTRY) >>> NUMBER_BITS;
/** Block number of a pure entry. */
export const entryNumber = (entry: number): number => entry & NUMBER_MASK;
/** Mixed id of a mixed entry. */
export const entryMixed = (entry: number): number => entry - 1;

/** The pure entry of block `number` of country `country`. */
export const pureEntry = (country: number, number: number): number => (PURE_ENTRY | (country << NUMBER_BITS) | number) >>> 0;

export class Coverage {
  readonly version: number;
  readonly revision: number;
  /** The border polygons that decide mixed blocks; null in revision 1. */
  readonly borders: BorderPolygons | null;
  readonly columns: Uint32Array;
  readonly countries: readonly string[];
  /** The two character codes of each country's code, for writing codes without reading strings. */
  readonly countryChars: readonly number[];
  readonly classes: readonly BlockClass[];
  private readonly countryIndex: Map<string, number>;
  /** The table's runs, flattened into fields so the hot paths load one typed array each. */
  private readonly runFirstBlock: Uint32Array;
  private readonly runLength: Uint32Array;
  private readonly runClass: Uint32Array;
  private readonly runBand: Uint16Array;
  /** Base of run r for the k-th member of its class: `bases[baseOffset[r] + k]`. */
  private readonly baseOffset: Uint32Array;
  private readonly bases: Uint32Array;
  /** Per country, its runs in order and their bases (`countryRuns[countryStart[c]] …`). */
  private readonly countryStart: Uint32Array;
  private readonly countryRuns: Uint32Array;
  private readonly countryBases: Uint32Array;
  /** Covered blocks per country, those added by fills included. */
  readonly blockCounts: Uint32Array;
  /** Covered blocks per country in the runs; a country's added blocks are numbered from here on. */
  private readonly runBlockCounts: Uint32Array;
  /** The fills of the table (revision 3 on), in band order then block column. */
  readonly fills: readonly BlockFill[];
  /** Per mixed id, the index of its fill in `fills`, or −1. */
  private readonly mixedFill: Int32Array;
  /** Per country, the blocks fills add to it, in numbering order. */
  private readonly added: AddedBlock[][];
  /** The number of an added block for its country, by addedKey. */
  private readonly addedNumbers = new Map<number, number>();
  /** Per run: 1 when one country fills it (decode then needs no border lookup). */
  readonly runPure: Uint8Array;
  /** Per run, its first member and that member's base: what a pure run's block entries hold. */
  private readonly runCountry: Uint32Array;
  private readonly runBase: Uint32Array;
  /** Per band, where its groups of 2^GROUP_SHIFT blocks start in `groups`. */
  private readonly bandGroupStart: Uint32Array;
  /** First level of the block index: per group, its pure entry or its slot in `blockEntries`. */
  private readonly groups: Uint32Array;
  /** Second level: 32 block entries per slot. */
  private readonly blockEntries: Uint32Array;
  /** Per mixed id (see PURE_ENTRY), the run of that block. */
  readonly mixedRun: Uint32Array;

  constructor(data: TableData) {
    this.version = data.version;
    this.revision = data.revision;
    this.borders = data.borders;
    this.columns = data.columns;
    this.countries = data.countries;
    this.countryChars = data.countries.flatMap((code) => [code.charCodeAt(0), code.charCodeAt(1)]);
    this.classes = data.classes;
    this.runFirstBlock = data.runs.first;
    this.runLength = data.runs.length;
    this.runClass = data.runs.cls;
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

    this.runPure = Uint8Array.from(cls, (c) => (data.classes[c].pure ? 1 : 0));
    this.runCountry = Uint32Array.from(cls, (c) => data.classes[c].members[0]);
    this.bandGroupStart = new Uint32Array(data.columns.length + 1);
    for (let band = 0; band < data.columns.length; band++) {
      this.bandGroupStart[band + 1] = this.bandGroupStart[band] + (blocksInBand(data.columns[band]) >>> GROUP_SHIFT) + 1;
    }
    this.runBase = Uint32Array.from(this.baseOffset.subarray(0, runCount), (o) => this.bases[o]);
    if (data.countries.length > MAX_PACKED_COUNTRIES) throw new Error(`The block index packs at most ${MAX_PACKED_COUNTRIES} countries.`);
    const { groups, blockEntries, mixedRun } = this.buildBlockIndex(data);
    this.groups = groups;
    this.blockEntries = blockEntries;
    this.mixedRun = mixedRun;

    this.runBlockCounts = this.blockCounts.slice();
    this.fills = data.fills ?? [];
    this.mixedFill = new Int32Array(mixedRun.length).fill(-1);
    this.fills.forEach(({ band, block }, i) => {
      const entry = this.entryAt(band, block);
      if (isPureEntry(entry) || entry === NO_COVERAGE) throw new Error(`table file: the fill of band ${band} block ${block} is not in a mixed block`);
      this.mixedFill[entryMixed(entry)] = i;
    });
    this.added = data.countries.map(() => []);
    const membersAt = (band: number, block: number): number[] => this.classOf(mixedRun[entryMixed(this.entryAt(band, block))]).members;
    for (const added of addedBlocks(this.fills, membersAt, this.runBlockCounts)) {
      this.added[added.country].push(added);
      this.addedNumbers.set(addedKey(added.band, added.block, added.country), added.number);
      this.blockCounts[added.country]++;
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

  /** The block index entry of block `block` of `band` (see PURE_ENTRY). Encode's one table read. */
  entryAt(band: number, block: number): number {
    const group = this.groups[this.bandGroupStart[band] + (block >>> GROUP_SHIFT)];
    const k = block & GROUP_MASK;
    // No branch: near coasts, pure or not is a coin toss that the CPU mispredicts often, and that cost
    // more than always reading the second level, which for a pure group reads slot 0 (in cache).
    const pure = group >> 31; // −1 for a pure group (PURE_ENTRY is bit 31), else 0
    const second = this.blockEntries[((group << GROUP_SHIFT) | k) & ~pure];
    return ((pure & (group + k)) | (~pure & second)) >>> 0;
  }

  /** Both levels of the block index, from the runs: first the groups, then the slots' entries. */
  private buildBlockIndex(data: TableData): { groups: Uint32Array; blockEntries: Uint32Array; mixedRun: Uint32Array } {
    const { bandStart, first, length } = data.runs;
    const end = (run: number): number => first[run] + length[run];
    const groups = new Uint32Array(this.bandGroupStart[data.columns.length]);
    let slots = 1;
    for (let band = 0; band < data.columns.length; band++) {
      let run = bandStart[band];
      const blocks = blocksInBand(data.columns[band]);
      for (let g = this.bandGroupStart[band]; g < this.bandGroupStart[band + 1]; g++) {
        const groupFirst = (g - this.bandGroupStart[band]) << GROUP_SHIFT;
        const groupLast = Math.min(groupFirst + GROUP_MASK, blocks - 1);
        while (run < bandStart[band + 1] && end(run) <= groupFirst) run++;
        const touched = run < bandStart[band + 1] && first[run] <= groupLast;
        const pure = touched && first[run] <= groupFirst && end(run) > groupLast && this.runPure[run] === 1;
        groups[g] = pure ? pureEntry(this.runCountry[run], this.runBase[run] + groupFirst - first[run]) : touched ? slots++ : 0;
      }
    }
    const blockEntries = new Uint32Array(slots << GROUP_SHIFT);
    let mixedCount = 0;
    for (let run = 0; run < length.length; run++) if (this.runPure[run] === 0) mixedCount += length[run];
    const mixedRun = new Uint32Array(mixedCount);
    let mixed = 0;
    for (let band = 0; band < data.columns.length; band++) {
      for (let run = bandStart[band]; run < bandStart[band + 1]; run++) {
        for (let block = first[run]; block < end(run); block++) {
          const group = groups[this.bandGroupStart[band] + (block >>> GROUP_SHIFT)];
          if (group >= PURE_ENTRY) {
            block |= GROUP_MASK; // the whole group is pure: on to the next group
            continue;
          }
          if (this.runPure[run] === 1) {
            blockEntries[(group << GROUP_SHIFT) | (block & GROUP_MASK)] = pureEntry(this.runCountry[run], this.runBase[run] + block - first[run]);
          } else {
            mixedRun[mixed] = run;
            blockEntries[(group << GROUP_SHIFT) | (block & GROUP_MASK)] = ++mixed;
          }
        }
      }
    }
    return { groups, blockEntries, mixedRun };
  }

  classOf(run: number): BlockClass {
    return this.classes[this.runClass[run]];
  }

  /** The block number of `block` (in run `run`) among the blocks of `country`, or −1 if it covers none. */
  blockNumber(run: number, country: number, block: number): number {
    const k = this.classOf(run).members.indexOf(country);
    if (k >= 0) return this.bases[this.baseOffset[run] + k] + block - this.runFirstBlock[run];
    return this.addedNumbers.get(addedKey(this.runBand[run], block, country)) ?? -1;
  }

  /** The fill of mixed block `mixed`, or null. */
  fillOf(mixed: number): BlockFill | null {
    const i = this.mixedFill[mixed];
    return i < 0 ? null : this.fills[i];
  }

  /** Where the `number`-th block of `country` is, or null past its last block. */
  locateBlock(country: number, number: number): { band: number; block: number; run: number } | null {
    if (number >= this.runBlockCounts[country]) {
      const added = this.added[country][number - this.runBlockCounts[country]];
      return added === undefined ? null : { band: added.band, block: added.block, run: this.mixedRun[entryMixed(this.entryAt(added.band, added.block))] };
    }
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
    if (offset >= this.runLength[run]) return null;
    return { band: this.runBand[run], block: this.runFirstBlock[run] + offset, run };
  }
}

/** The key of `country`'s number for an added block. */
const addedKey = (band: number, block: number, country: number): number => ((band << 14) + block) * MAX_PACKED_COUNTRIES + country;
