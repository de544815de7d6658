/**
 * Block fills, the erratum of format v1 (docs/code-format.md §6, §10), carried by the table from
 * revision 3 on: in a mixed block, the country a cell takes when its centre lies in no border polygon
 * at all, which until revision 3 gave no code. Either one country for every such cell of the block,
 * or one per square of FILL_SQUARE × FILL_SQUARE cells.
 *
 * A fill is read only where the border test finds no polygon, so it never changes an answer the test
 * gives: it only turns "no code" into a code. A fill country that does not cover its block gains the
 * block, numbered after its last covered block (addedBlocks), so no block number moves.
 */
import { BLOCK_SIZE, blocksInBand } from './grid.ts';
import type { ByteReader, ByteWriter } from './table-bytes.ts';

/** Cells along a side of a fill square: 108 m, so 36 squares along a side of a block. */
export const FILL_SQUARE = 36;
const SQUARES_PER_SIDE = BLOCK_SIZE / FILL_SQUARE;
/** Squares of a block, numbered row by row from its south-west corner. */
export const SQUARES = SQUARES_PER_SIDE * SQUARES_PER_SIDE;
/** The fill of a cell that stays without a code. */
export const NO_FILL = -1;

export interface BlockFill {
  band: number;
  block: number;
  /** The country index (into the table's countries) every unbordered cell of the block takes, or NO_FILL when `squares` decides. */
  country: number;
  /** When not null: per square (squareOf), the country index its unbordered cells take, or NO_FILL. */
  squares: Int16Array | null;
}

/** The square of the cell at `row`, `col` of the grid within its block. */
export const squareOf = (row: number, col: number): number =>
  (((row % BLOCK_SIZE) / FILL_SQUARE) | 0) * SQUARES_PER_SIDE + (((col % BLOCK_SIZE) / FILL_SQUARE) | 0);

/** The countries a fill gives, ascending, each once. */
export function fillCountries(fill: BlockFill): number[] {
  if (fill.squares === null) return [fill.country];
  // A loop, not a Set of the 1296 squares: the table's load calls this for every fill.
  const countries: number[] = [];
  let last = NO_FILL;
  for (const country of fill.squares) {
    if (country !== last && country !== NO_FILL && !countries.includes(country)) countries.push(country);
    last = country;
  }
  return countries.sort((a, b) => a - b);
}

/** Writes the fill section: the blocks in band order then block column, each with its fill or squares. */
export function writeFillSection(fills: readonly BlockFill[], countryCount: number, columns: Uint32Array, out: ByteWriter): void {
  out.uint(fills.length);
  let band = 0;
  let block = -1;
  for (const fill of fills) {
    checkPlace(fill, band, block, columns);
    out.uint(fill.band - band);
    out.uint(fill.band === band ? fill.block - block - 1 : fill.block);
    ({ band, block } = fill);
    if (fill.squares === null) {
      checkCountry(fill.country, countryCount, false);
      out.uint(1 + fill.country);
      continue;
    }
    if (fill.squares.length !== SQUARES) throw new Error(`fill of band ${band} block ${block}: ${fill.squares.length} squares, not ${SQUARES}`);
    out.uint(0);
    const runs: [length: number, country: number][] = [];
    for (const country of fill.squares) {
      checkCountry(country, countryCount, true);
      const last = runs[runs.length - 1];
      if (last !== undefined && last[1] === country) last[0]++;
      else runs.push([1, country]);
    }
    out.uint(runs.length);
    for (const [length, country] of runs) {
      out.uint(length);
      out.uint(country + 1);
    }
  }
}

export function readFillSection(input: ByteReader, countryCount: number, columns: Uint32Array): BlockFill[] {
  const fills: BlockFill[] = [];
  let band = 0;
  let block = -1;
  for (let count = input.uint(), i = 0; i < count; i++) {
    const bandStep = input.uint();
    const blockField = input.uint();
    const fill: BlockFill = { band: band + bandStep, block: bandStep === 0 ? block + 1 + blockField : blockField, country: NO_FILL, squares: null };
    if (fill.band >= columns.length || fill.block >= blocksInBand(columns[fill.band])) input.fail(`fill ${i} is in band ${fill.band} block ${fill.block}, outside the grid`);
    ({ band, block } = fill);
    const country = input.uint() - 1;
    if (country >= countryCount) input.fail(`fill ${i} names country ${country} of ${countryCount}`);
    if (country !== NO_FILL) {
      fill.country = country;
    } else {
      const squares = new Int16Array(SQUARES);
      let at = 0;
      for (let runs = input.uint(), r = 0; r < runs; r++) {
        const length = input.uint();
        const square = input.uint() - 1;
        if (square >= countryCount) input.fail(`fill ${i} names country ${square} of ${countryCount}`);
        if (length === 0 || at + length > SQUARES) input.fail(`fill ${i}: square runs of the wrong length`);
        squares.fill(square, at, (at += length));
      }
      if (at !== SQUARES) input.fail(`fill ${i}: square runs cover ${at} squares, not ${SQUARES}`);
      fill.squares = squares;
    }
    fills.push(fill);
  }
  return fills;
}

/** Fills must follow each other in band order then block column, inside the grid. */
function checkPlace(fill: BlockFill, band: number, block: number, columns: Uint32Array): void {
  const after = fill.band > band || (fill.band === band && fill.block > block);
  if (!after || fill.band >= columns.length || fill.block >= blocksInBand(columns[fill.band])) {
    throw new Error(`fill of band ${fill.band} block ${fill.block} is out of order or outside the grid`);
  }
}

function checkCountry(country: number, countryCount: number, orNone: boolean): void {
  if (!Number.isInteger(country) || country >= countryCount || country < (orNone ? NO_FILL : 0)) throw new Error(`a fill names country ${country} of ${countryCount}`);
}

/** A block a country gains by fill, with its number among that country's blocks. */
export interface AddedBlock {
  country: number;
  band: number;
  block: number;
  number: number;
}

/**
 * The blocks that fills add to countries' coverage: a fill country that is not a member of its block's
 * class gains the block, numbered after its last covered block, in band order then block column (the
 * order of the fills). `membersAt` gives the class members of a mixed block; `blockCounts` each
 * country's covered blocks before the fills.
 */
export function addedBlocks(fills: readonly BlockFill[], membersAt: (band: number, block: number) => readonly number[], blockCounts: ArrayLike<number>): AddedBlock[] {
  const next = Array.from(blockCounts);
  const added: AddedBlock[] = [];
  for (const fill of fills) {
    const members = membersAt(fill.band, fill.block);
    for (const country of fillCountries(fill)) {
      if (!members.includes(country)) added.push({ country, band: fill.band, block: fill.block, number: next[country]++ });
    }
  }
  return added;
}
