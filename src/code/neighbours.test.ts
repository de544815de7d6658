import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocError } from '../errors.ts';
import { decode, encode } from './codec.ts';
import { neighbours } from './codec.ts';
import { coverage } from './shipped-table.ts';
import { BLOCK_SIZE, ROWS, bandOf, colCentre, colOf, colWest, rowCentre, rowOf } from './grid.ts';
import { NEIGHBOUR_DIRECTIONS, neighbourCell, neighbourCells, type GridCell } from './neighbours.ts';

const columns = coverage().columns;
const countOf = (row: number): number => columns[bandOf(row)];

/** Any cell of the grid. */
const anyCell = fc
  .tuple(fc.integer({ min: 0, max: ROWS - 1 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }))
  .map(([row, at]): GridCell => ({ row, col: Math.floor(at * countOf(row)) }));

/** Any cell but those of the first and the last row, which have no neighbour past the pole. */
const innerCell = anyCell.filter(({ row }) => row > 0 && row < ROWS - 1);

/** A cell in the first or the last row of a band, where the row beyond has other columns. */
const bandEdgeCell = fc
  .tuple(fc.integer({ min: 1, max: ROWS / BLOCK_SIZE - 2 }), fc.boolean(), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }))
  .map(([band, first, at]): GridCell => {
    const row = band * BLOCK_SIZE + (first ? 0 : BLOCK_SIZE - 1);
    return { row, col: Math.floor(at * countOf(row)) };
  });

/** The code of a cell's centre, or null where it has none. */
function codeAt(cell: GridCell): string | null {
  try {
    return encode(rowCentre(cell.row), colCentre(cell.col, countOf(cell.row))).loc_code;
  } catch (error) {
    if (error instanceof LocError && error.code === 'unsupported_location') return null;
    throw error;
  }
}

/** From `cell`, steps east (or west) while the cells keep `keep`; the last cell that does. */
function walk(cell: GridCell, east: number, keep: (code: string | null) => boolean): GridCell {
  for (let step = 0; step < 200_000; step++) {
    const next = neighbourCell(cell, east, 0, columns)!;
    if (!keep(codeAt(next))) return cell;
    cell = next;
  }
  throw new Error('walked 600 km without leaving');
}

describe("a cell's neighbour cells", () => {
  it('east and west are the next columns of the same row, each the other’s way back', () => {
    fc.assert(
      fc.property(anyCell, (cell) => {
        const { e, w } = neighbourCells(cell.row, cell.col, columns);
        expect(e!.row).toBe(cell.row);
        expect(w!.row).toBe(cell.row);
        expect(neighbourCell(e!, -1, 0, columns)).toEqual(cell);
        expect(neighbourCell(w!, 1, 0, columns)).toEqual(cell);
      }),
    );
  });

  it('wrap around the antimeridian', () => {
    const row = rowOf(66);
    const last = countOf(row) - 1;
    expect(neighbourCells(row, last, columns).e).toEqual({ row, col: 0 });
    expect(neighbourCells(row, 0, columns).w).toEqual({ row, col: last });
    expect(neighbourCells(row, 0, columns).nw).toEqual({ row: row + 1, col: countOf(row + 1) - 1 });
  });

  it('north and south are the cells straight above and below the centre, in another band too', () => {
    fc.assert(
      fc.property(fc.oneof(innerCell, bandEdgeCell), (cell) => {
        const { n, s } = neighbourCells(cell.row, cell.col, columns);
        const centre = colCentre(cell.col, countOf(cell.row));
        for (const [next, row] of [[n, cell.row + 1], [s, cell.row - 1]] as const) {
          expect(next!.row).toBe(row);
          if (bandOf(row) === bandOf(cell.row)) expect(next!.col).toBe(cell.col);
          expect(colWest(next!.col, countOf(row))).toBeLessThanOrEqual(centre);
          expect(colWest(next!.col + 1, countOf(row))).toBeGreaterThan(centre);
        }
      }),
    );
  });

  it('across a band edge hold the centre longitude in the new band’s columns', () => {
    const row = rowOf(60) - (rowOf(60) % BLOCK_SIZE) + BLOCK_SIZE - 1;
    expect(countOf(row + 1)).toBeLessThan(countOf(row));
    const col = 123_456;
    const { n, ne, nw } = neighbourCells(row, col, columns);
    expect(n!.col).toBe(colOf(colCentre(col, countOf(row)), countOf(row + 1)));
    expect(n!.col).not.toBe(col);
    expect(ne).toEqual({ row: row + 1, col: n!.col + 1 });
    expect(nw).toEqual({ row: row + 1, col: n!.col - 1 });
  });

  it('lead back to the cell north then south within a band, and across the equator, where the bands are as wide', () => {
    const equator = (ROWS / BLOCK_SIZE / 2) * BLOCK_SIZE;
    expect(countOf(equator)).toBe(countOf(equator - 1));
    const within = innerCell.filter(({ row }) => bandOf(row + 1) === bandOf(row));
    const atEquator = fc.integer({ min: 0, max: countOf(equator) - 1 }).map((col): GridCell => ({ row: equator - 1, col }));
    fc.assert(
      fc.property(fc.oneof(within, atEquator), (cell) => {
        const { n, ne, nw } = neighbourCells(cell.row, cell.col, columns);
        expect(neighbourCell(n!, 0, -1, columns)).toEqual(cell);
        expect(neighbourCell(ne!, -1, -1, columns)).toEqual(cell);
        expect(neighbourCell(nw!, 1, -1, columns)).toEqual(cell);
      }),
    );
  });

  it('diagonals are the vertical neighbour’s east and west', () => {
    fc.assert(
      fc.property(fc.oneof(anyCell, bandEdgeCell), (cell) => {
        const all = neighbourCells(cell.row, cell.col, columns);
        expect(all.ne).toEqual(all.n && neighbourCell(all.n, 1, 0, columns));
        expect(all.nw).toEqual(all.n && neighbourCell(all.n, -1, 0, columns));
        expect(all.se).toEqual(all.s && neighbourCell(all.s, 1, 0, columns));
        expect(all.sw).toEqual(all.s && neighbourCell(all.s, -1, 0, columns));
      }),
    );
  });

  it('stop at the poles', () => {
    const north = neighbourCells(ROWS - 1, 0, columns);
    expect([north.nw, north.n, north.ne]).toEqual([null, null, null]);
    expect(north.s).toEqual({ row: ROWS - 2, col: 0 });
    const south = neighbourCells(0, 5, columns);
    expect([south.sw, south.s, south.se]).toEqual([null, null, null]);
    expect(south.e).toEqual({ row: 0, col: 6 });
  });
});

describe("a code's neighbours", () => {
  it('are the codes of the neighbour cells’ centres, keyed clockwise from north', () => {
    const here = decode('FR-0RMB-CLY0');
    const row = rowOf(here.latitude);
    const cells = neighbourCells(row, colOf(here.longitude, countOf(row)), columns);
    const found = neighbours('fr 0rmb cly0');
    expect(Object.keys(found)).toEqual([...NEIGHBOUR_DIRECTIONS]);
    for (const direction of NEIGHBOUR_DIRECTIONS) expect(found[direction]).toBe(codeAt(cells[direction]!));
    expect(found.e).toBe('FR-0RMB-CLY1');
    expect(found.n).toBe('FR-0RMB-CMY0');
  });

  it('are null where a cell has no code, and may be in another country', () => {
    // West from Brest out to sea, past the last cell with a code.
    const brest = encode(48.39, -4.49);
    const start = { row: rowOf(brest.latitude), col: colOf(brest.longitude, countOf(rowOf(brest.latitude))) };
    const coast = neighbours(codeAt(walk(start, -1, (code) => code !== null))!);
    expect(coast.w).toBeNull();
    expect(coast.e).toMatch(/^FR-/);
    // East across the Rhine from Strasbourg, the last French cell.
    const strasbourg = encode(48.58, 7.75);
    const from = { row: rowOf(strasbourg.latitude), col: colOf(strasbourg.longitude, countOf(rowOf(strasbourg.latitude))) };
    const border = neighbours(codeAt(walk(from, 1, (code) => code?.startsWith('FR-') === true))!);
    expect(border.e).toMatch(/^DE-/);
    expect(border.w).toMatch(/^FR-/);
  });

  it('refuse a malformed code and a code of no cell, as decode does', () => {
    for (const [code, error] of [['FR-0RMB', 'invalid_code'], ['ZZ-0000-0000', 'code_not_found'], ['FR-ZZZZ-0000', 'code_not_found']] as const) {
      expect(() => neighbours(code)).toThrow(expect.objectContaining({ code: error }));
    }
  });
});
