/**
 * The block index that encode reads (docs/code-format.md §9), in two levels. A block's entry is one of:
 * - a pure entry (PURE_ENTRY set): one country fills the block's run, and the entry holds that country
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
 * share a slot that is all NO_COVERAGE. So every block is one or two reads away.
 *
 * A band's entries are written the first time the band is read, its slots taken from the end of the
 * second level, which grows as needed: a browser that encodes around one town writes a few bands (a
 * few kB) instead of 16 MB, and loading the table stays close to the cost of reading its bytes. The
 * service writes every band at start (writeAll).
 */
import { blocksInBand } from './grid.ts';

/** What a block of a band whose entries are not written yet reads: no entry has this value. */
const UNWRITTEN = 0x7fff_ffff;
/** The slot of the groups that no run touches; slot 0 is that of every group of a band not yet written. */
const NO_COVERAGE_SLOT = 1;

/** Blocks per group: 32. */
const GROUP_SHIFT = 5;
const GROUP_MASK = (1 << GROUP_SHIFT) - 1;

export const PURE_ENTRY = 0x8000_0000;
/** Bits of a pure entry: the block number below, the country above (21 + 10 < 31). */
const NUMBER_BITS = 21;
const NUMBER_MASK = (1 << NUMBER_BITS) - 1;
export const MAX_PACKED_COUNTRIES = 1 << 10;
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

/** The runs of the table as the index reads them, one typed array per field. */
export interface IndexRuns {
  columns: Uint32Array;
  /** Runs of band b: bandStart[b] … bandStart[b + 1] − 1, west to east. */
  bandStart: Uint32Array;
  first: Uint32Array;
  length: Uint32Array;
  /** 1 when one country fills the run. */
  pure: Uint8Array;
  /** A pure run's country, and the number of its first block for that country. */
  country: Uint32Array;
  base: Uint32Array;
  /** The mixed id of a mixed run's first block. */
  mixedBase: Uint32Array;
}

export class BlockIndex {
  /** Per band, where its groups start in `groups`; per band, whether its entries are written. */
  private readonly bandGroupStart: Uint32Array;
  private readonly written: Uint8Array;
  /** First level: per group, its pure entry or its slot in `blockEntries`. */
  private readonly groups: Uint32Array;
  /**
   * Second level: 32 block entries per slot, `slots` of them taken so far. Slot 0, where every group of
   * a band not yet written points, holds UNWRITTEN; slot 1, no coverage.
   */
  private blockEntries = new Uint32Array(64 << GROUP_SHIFT).fill(UNWRITTEN, 0, 1 << GROUP_SHIFT);
  private slots = 2;

  constructor(private readonly runs: IndexRuns) {
    const bands = runs.columns.length;
    this.bandGroupStart = new Uint32Array(bands + 1);
    for (let band = 0; band < bands; band++) {
      this.bandGroupStart[band + 1] = this.bandGroupStart[band] + (blocksInBand(runs.columns[band]) >>> GROUP_SHIFT) + 1;
    }
    // Zeros: every group at slot 0, unwritten, with no pass over the 4 MB at load.
    this.groups = new Uint32Array(this.bandGroupStart[bands]);
    this.written = new Uint8Array(bands);
  }

  /** The entry of block `block` of `band`. Encode's one table read. */
  entryAt(band: number, block: number): number {
    const group = this.groups[this.bandGroupStart[band] + (block >>> GROUP_SHIFT)];
    const k = block & GROUP_MASK;
    // No branch: near coasts, pure or not is a coin toss that the CPU mispredicts often, and that cost
    // more than always reading the second level, which for a pure group reads slot 0 (in cache).
    const pure = group >> 31; // −1 for a pure group (PURE_ENTRY is bit 31), else 0
    const second = this.blockEntries[((group << GROUP_SHIFT) | k) & ~pure];
    const entry = ((pure & (group + k)) | (~pure & second)) >>> 0;
    // The test of a band not yet written is on the entry already read, not a load of its own: the
    // service, which writes every band at start, pays a compare for it and nothing more.
    if (entry !== UNWRITTEN) return entry;
    this.writeBand(band);
    return this.entryAt(band, block);
  }

  /** Writes every band's entries: what a server does once at start, so no encode pays for it. */
  writeAll(): void {
    for (let band = 0; band < this.written.length; band++) if (this.written[band] === 0) this.writeBand(band);
  }

  /**
   * The groups of `band` that some run touches but no pure run holds whole: each needs a slot. Written
   * out rather than through forEachGroup, as the load counts them for every band.
   */
  private slotsOf(band: number): number {
    const { bandStart, first, length, pure } = this.runs;
    const blocks = blocksInBand(this.runs.columns[band]);
    let slots = 0;
    let last = -1;
    for (let run = bandStart[band]; run < bandStart[band + 1]; run++) {
      const end = first[run] + length[run];
      for (let group = Math.max(last + 1, first[run] >>> GROUP_SHIFT); group <= (end - 1) >>> GROUP_SHIFT; group++) {
        if (!holdsWhole(pure[run], first[run], end, group, blocks)) slots++;
        last = group;
      }
    }
    return slots;
  }

  /**
   * Calls `visit` for each group of `band` that a run touches, with whether it needs a slot, and the
   * run; in group order. A group that two runs share is visited once, with the first.
   */
  private forEachGroup(band: number, visit: (group: number, slot: boolean, run: number) => void): void {
    const { bandStart, first, length, pure } = this.runs;
    const blocks = blocksInBand(this.runs.columns[band]);
    let last = -1;
    for (let run = bandStart[band]; run < bandStart[band + 1]; run++) {
      const end = first[run] + length[run];
      for (let group = Math.max(last + 1, first[run] >>> GROUP_SHIFT); group <= (end - 1) >>> GROUP_SHIFT; group++) {
        visit(group, !holdsWhole(pure[run], first[run], end, group, blocks), run);
        last = group;
      }
    }
  }

  private writeBand(band: number): void {
    const { first, length, pure, country, base, mixedBase } = this.runs;
    const groupStart = this.bandGroupStart[band];
    this.groups.fill(NO_COVERAGE_SLOT, groupStart, this.bandGroupStart[band + 1]);
    let slot = this.slots;
    this.slots += this.slotsOf(band);
    if (this.slots << GROUP_SHIFT > this.blockEntries.length) {
      const grown = new Uint32Array(Math.max(this.slots, 2 * (this.blockEntries.length >>> GROUP_SHIFT)) << GROUP_SHIFT);
      grown.set(this.blockEntries);
      this.blockEntries = grown;
    }
    this.forEachGroup(band, (group, needsSlot, run) => {
      this.groups[groupStart + group] = needsSlot ? slot++ : pureEntry(country[run], base[run] + (group << GROUP_SHIFT) - first[run]);
    });
    for (let run = this.runs.bandStart[band]; run < this.runs.bandStart[band + 1]; run++) {
      for (let block = first[run]; block < first[run] + length[run]; block++) {
        const group = this.groups[groupStart + (block >>> GROUP_SHIFT)];
        if (group >= PURE_ENTRY) {
          block |= GROUP_MASK; // the whole group is pure: on to the next group
          continue;
        }
        this.blockEntries[(group << GROUP_SHIFT) | (block & GROUP_MASK)] =
          pure[run] === 1 ? pureEntry(country[run], base[run] + block - first[run]) : mixedBase[run] + block - first[run] + 1;
      }
    }
    this.written[band] = 1;
  }
}

/**
 * Whether a run (pure or not, from `first` to `end`) holds group `group` whole in a band of `blocks`
 * blocks; the band's last group may hold fewer than 32 blocks.
 */
const holdsWhole = (pure: number, first: number, end: number, group: number, blocks: number): boolean =>
  pure === 1 && first <= group << GROUP_SHIFT && end >= Math.min((group + 1) << GROUP_SHIFT, blocks);
