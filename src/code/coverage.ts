/**
 * Coverage: which blocks each country's codes number, read from the frozen table file.
 *
 * A country's covered blocks, ordered by band then column, are numbered 0, 1, 2 …; that number is the
 * `BBBB` of a code. Runs of the table are already in that order, so one pass gives every run the
 * number of its first block for each country that covers it (its base).
 */
import { readFileSync } from 'node:fs';
import { blocksInBand } from './grid.ts';
import { readTableFile, type BlockClass, type TableData } from './table-file.ts';

/** Blocks per group of the run index: 32, so a scan rarely passes more than a run or two. */
const GROUP_SHIFT = 5;
const GROUP_MASK = (1 << GROUP_SHIFT) - 1;

/**
 * A group entry with this bit set is a pure group: all its blocks lie in one run that one country
 * fills, and the entry holds that country and the block number of the group's first block, so
 * encode needs no run at all — one random read of the 4 MB group index instead of two (the run
 * arrays are as large), which is most of what encode spends waiting on memory.
 */
const PURE_GROUP = 0x8000_0000;
/** Bits of a pure group entry: the block number below, the country above (21 + 10 < 31). */
const NUMBER_BITS = 21;
const NUMBER_MASK = (1 << NUMBER_BITS) - 1;
const MAX_PACKED_COUNTRIES = 1 << 10;

/** True when a group entry is a pure group. */
export const isPureGroup = (entry: number): boolean => entry >= PURE_GROUP;
/** Country index of a pure group entry. */
export const pureGroupCountry = (entry: number): number => (entry & ~PURE_GROUP) >>> NUMBER_BITS;
/** Block number of `block` in the pure group of `entry`. */
export const pureGroupNumber = (entry: number, block: number): number => (entry & NUMBER_MASK) + (block & GROUP_MASK);

/** The table of format v1, committed beside this module and never regenerated at run time. */
export const TABLE_URL = new URL('./tables/v1.bin', import.meta.url);

export class Coverage {
  readonly version: number;
  readonly columns: Uint32Array;
  readonly countries: readonly string[];
  readonly classes: readonly BlockClass[];
  private readonly countryIndex: Map<string, number>;
  /** The table's runs, flattened into fields so the hot paths load one typed array each. */
  private readonly bandStart: Uint32Array;
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
  /** Covered blocks per country. */
  readonly blockCounts: Uint32Array;
  /** Per run: 1 when one country fills it, that country, and its base (the encode fast path). */
  readonly runPure: Uint8Array;
  readonly runCountry: Uint32Array;
  readonly runBase: Uint32Array;
  /** Per band, where its groups of 2^GROUP_SHIFT blocks start in `groups`. */
  private readonly bandGroupStart: Uint32Array;
  /**
   * Per group of blocks: a pure group entry (see PURE_GROUP), or else the first run of its band that
   * ends after the group's first block.
   */
  private readonly groups: Uint32Array;
  /** Per run, the block after its last one. */
  private readonly runEnd: Uint32Array;
  /** Blocks in the widest band: `band * maxBlocksPerBand + block` names a block uniquely. */
  readonly maxBlocksPerBand: number;

  constructor(data: TableData) {
    this.version = data.version;
    this.columns = data.columns;
    this.countries = data.countries;
    this.classes = data.classes;
    this.bandStart = data.runs.bandStart;
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
    this.maxBlocksPerBand = blocksInBand(Math.max(...data.columns));
    this.runEnd = data.runs.first.map((f, r) => f + length[r]);
    this.bandGroupStart = new Uint32Array(data.columns.length + 1);
    for (let band = 0; band < data.columns.length; band++) {
      this.bandGroupStart[band + 1] = this.bandGroupStart[band] + (blocksInBand(data.columns[band]) >>> GROUP_SHIFT) + 1;
    }
    this.runBase = Uint32Array.from(this.baseOffset.subarray(0, runCount), (o) => this.bases[o]);
    if (data.countries.length > MAX_PACKED_COUNTRIES) throw new Error(`The group index packs at most ${MAX_PACKED_COUNTRIES} countries.`);
    this.groups = new Uint32Array(this.bandGroupStart[data.columns.length]);
    for (let band = 0; band < data.columns.length; band++) {
      let run = bandStart[band];
      const blocks = blocksInBand(data.columns[band]);
      for (let g = this.bandGroupStart[band]; g < this.bandGroupStart[band + 1]; g++) {
        const groupFirst = (g - this.bandGroupStart[band]) << GROUP_SHIFT;
        const groupLast = Math.min(groupFirst + GROUP_MASK, blocks - 1);
        while (run < bandStart[band + 1] && this.runEnd[run] <= groupFirst) run++;
        const pure = run < bandStart[band + 1] && this.runFirstBlock[run] <= groupFirst && this.runEnd[run] > groupLast && this.runPure[run] === 1;
        this.groups[g] = pure
          ? (PURE_GROUP | (this.runCountry[run] << NUMBER_BITS) | (this.runBase[run] + groupFirst - this.runFirstBlock[run])) >>> 0
          : run;
      }
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

  /**
   * The run that holds block `block` of `band`, or −1 when no country covers the block: the group
   * index gives the first run that can hold it, and a short forward scan the one that does.
   */
  runAt(band: number, block: number): number {
    const last = this.bandStart[band + 1];
    const entry = this.groupAt(band, block);
    // A pure group does not name its run; encode never asks for one, so scanning the band will do.
    let run = isPureGroup(entry) ? this.bandStart[band] : entry;
    while (run < last && this.runEnd[run] <= block) run++;
    return run < last && this.runFirstBlock[run] <= block ? run : -1;
  }

  /** The group entry of block `block` of `band`: read it first, the run only when it is not pure. */
  groupAt(band: number, block: number): number {
    return this.groups[this.bandGroupStart[band] + (block >>> GROUP_SHIFT)];
  }

  /** First block of a run. */
  runFirst(run: number): number {
    return this.runFirstBlock[run];
  }

  classOf(run: number): BlockClass {
    return this.classes[this.runClass[run]];
  }

  /** The block number of `block` (in run `run`) among the blocks of `country`, or −1 if it covers none. */
  blockNumber(run: number, country: number, block: number): number {
    const k = this.classOf(run).members.indexOf(country);
    return k < 0 ? -1 : this.bases[this.baseOffset[run] + k] + block - this.runFirstBlock[run];
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
    if (offset >= this.runLength[run]) return null;
    return { band: this.runBand[run], block: this.runFirstBlock[run] + offset, run };
  }
}

let loaded: Coverage | undefined;

/** The coverage of format v1, read on first use. */
export function coverage(): Coverage {
  loaded ??= new Coverage(readTableFile(readFileSync(TABLE_URL)));
  return loaded;
}
