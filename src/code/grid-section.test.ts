import { describe, expect, it } from 'vitest';
import { coverage } from './shipped-table.ts';
import { BLOCK_SIZE, EARTH_RADIUS_M, bandOf, colOf, colWest, rowOf, rowSouth } from './grid.ts';
import { boxCells, boxLines, cellCount, diagonalM, lngStretches, type Box } from './grid-section.ts';

/** The shipped grid's column counts, band by band. */
const COLUMNS = coverage().columns;
const columnsAt = (lat: number) => COLUMNS[bandOf(rowOf(lat))];

/** A box whose edges are the edges of rows r0 … r1 − 1 and columns c0 … c1 − 1 of the band at `lat`. */
function onEdges(lat: number, rows: number, cols: number, lng: number): { box: Box; r0: number; c0: number; columns: number } {
  const r0 = rowOf(lat);
  const columns = columnsAt(lat);
  const c0 = colOf(lng, columns);
  return { box: { south: rowSouth(r0), north: rowSouth(r0 + rows), west: colWest(c0, columns), east: colWest(c0 + cols, columns) }, r0, c0, columns };
}

describe('the cells of a box', () => {
  it('are those inside a box drawn on cell edges: a shared edge is not an overlap', () => {
    const { box, r0, c0, columns } = onEdges(48.8584, 3, 4, 2.2945);
    const cells = boxCells(box, COLUMNS);
    expect(cells).toEqual({ firstRow: r0, lastRow: r0 + 2, bands: [{ band: bandOf(r0), columns, firstRow: r0, lastRow: r0 + 2, spans: [{ first: c0, last: c0 + 3 }] }] });
    expect(cellCount(cells)).toBe(12);
  });

  it('include a cell the box only enters, by however little', () => {
    const { box, r0, c0 } = onEdges(48.8584, 3, 4, 2.2945);
    const cells = boxCells({ ...box, south: box.south - 1e-9, east: box.east + 1e-9 }, COLUMNS);
    expect(cells.firstRow).toBe(r0 - 1);
    expect(cells.bands[0].spans).toEqual([{ first: c0, last: c0 + 4 }]);
    expect(cellCount(cells)).toBe(20);
  });

  it('are counted per band across a band edge, each band with its own columns', () => {
    const edge = rowSouth(Math.ceil(rowOf(60) / BLOCK_SIZE) * BLOCK_SIZE);
    const box = { south: edge - 0.0001, north: edge + 0.0001, west: 10, east: 10.001 };
    const cells = boxCells(box, COLUMNS);
    expect(cells.bands.map(({ band }) => band)).toEqual([bandOf(rowOf(edge)) - 1, bandOf(rowOf(edge))]);
    const [below, above] = cells.bands;
    expect(below.lastRow + 1).toBe(above.firstRow);
    expect(rowSouth(above.firstRow)).toBe(edge);
    expect(below.columns).not.toBe(above.columns);
    expect(below.spans).toEqual([{ first: colOf(10, below.columns), last: colOf(10.001, below.columns) }]);
    expect(cellCount(cells)).toBe(
      (below.lastRow - below.firstRow + 1) * (below.spans[0].last - below.spans[0].first + 1) + (above.lastRow - above.firstRow + 1) * (above.spans[0].last - above.spans[0].first + 1),
    );
  });

  it('across the antimeridian are the band’s last columns, then its first', () => {
    const columns = columnsAt(-16.8);
    const cells = boxCells({ south: -16.8001, north: -16.7999, west: 179.9999, east: -179.9999 }, COLUMNS);
    expect(cells.bands[0].spans).toEqual([{ first: colOf(179.9999, columns), last: columns - 1 }, { first: 0, last: colOf(-179.9999, columns) }]);
  });

  it('are every column once when a box across the antimeridian goes all the way round', () => {
    const columns = columnsAt(-89.9999);
    const cells = boxCells({ south: -89.99999, north: -89.99998, west: 10.0000001, east: 10 }, COLUMNS);
    expect(cells.bands[0].spans).toEqual([{ first: 0, last: columns - 1 }]);
  });

  it('read 180 as the west edge and -180 as the east edge as the same meridian as -180 and 180', () => {
    expect(lngStretches({ south: 0, north: 1, west: 180, east: -179 })).toEqual([[-180, -179]]);
    expect(lngStretches({ south: 0, north: 1, west: 179, east: -180 })).toEqual([[179, 180]]);
    expect(lngStretches({ south: 0, north: 1, west: -180, east: 180 })).toEqual([[-180, 180]]);
    expect(lngStretches({ south: 0, north: 1, west: 179, east: -179 })).toEqual([[179, 180], [-180, -179]]);
    const columns = columnsAt(0);
    expect(boxCells({ south: 0, north: 1e-5, west: 179.99999, east: 180 }, COLUMNS).bands[0].spans.at(-1)!.last).toBe(columns - 1);
  });
});

describe('the grid lines of a box', () => {
  it('are every row and column edge inside it, its own edges included when they are grid edges', () => {
    const { box, r0, c0, columns } = onEdges(48.8584, 3, 4, 2.2945);
    const lines = boxLines(box, COLUMNS);
    expect(lines.rows).toEqual([0, 1, 2, 3].map((i) => rowSouth(r0 + i)));
    expect(lines.stretches).toEqual([[box.west, box.east]]);
    expect(lines.bands).toEqual([{ band: bandOf(r0), columns, south: box.south, north: box.north, lngs: [0, 1, 2, 3, 4].map((i) => colWest(c0 + i, columns)) }]);
  });

  it('leave out the edges of cells that only reach into the box', () => {
    const { box, r0, c0, columns } = onEdges(48.8584, 3, 4, 2.2945);
    const lines = boxLines({ south: box.south + 1e-9, north: box.north - 1e-9, west: box.west + 1e-9, east: box.east - 1e-9 }, COLUMNS);
    expect(lines.rows).toEqual([1, 2].map((i) => rowSouth(r0 + i)));
    expect(lines.bands[0].lngs).toEqual([1, 2, 3].map((i) => colWest(c0 + i, columns)));
  });

  it('across the antimeridian run on both sides of it, with the meridian ±180 written once', () => {
    const columns = columnsAt(-16.8);
    const lines = boxLines({ south: -16.8001, north: -16.7999, west: 179.99995, east: -179.99995 }, COLUMNS);
    expect(lines.stretches).toEqual([[179.99995, 180], [-180, -179.99995]]);
    const lngs = lines.bands[0].lngs;
    expect(lngs.filter((lng) => Math.abs(lng) === 180)).toEqual([180]);
    expect(lngs.every((lng) => lng >= 179.99995 || lng <= -179.99995)).toBe(true);
    expect(lngs).toContain(colWest(colOf(179.99995, columns) + 1, columns));
    expect(lngs).toContain(colWest(1, columns));
  });

  it('end each band’s column edges at the band’s edge', () => {
    const edge = rowSouth(Math.ceil(rowOf(60) / BLOCK_SIZE) * BLOCK_SIZE);
    const lines = boxLines({ south: edge - 0.0001, north: edge + 0.0001, west: 10, east: 10.001 }, COLUMNS);
    expect(lines.bands.map(({ south, north }) => [south, north])).toEqual([[edge - 0.0001, edge], [edge, edge + 0.0001]]);
  });
});

describe('the diagonal of a box', () => {
  it('is the haversine distance between its corners on the sphere of radius R', () => {
    // One degree of the equator.
    expect(diagonalM({ south: 0, north: 1e-12, west: 0, east: 1 })).toBeCloseTo((EARTH_RADIUS_M * Math.PI) / 180, 3);
    // One degree of a meridian, wherever it is.
    expect(diagonalM({ south: 60, north: 61, west: 5, east: 5 + 1e-12 })).toBeCloseTo((EARTH_RADIUS_M * Math.PI) / 180, 3);
  });

  it('is the same across the antimeridian as beside it', () => {
    expect(diagonalM({ south: -17, north: -16.99, west: 179.995, east: -179.995 })).toBeCloseTo(diagonalM({ south: -17, north: -16.99, west: 0, east: 0.01 }), 6);
  });

  it('measures a box wider than half the world as 180° wide, not the short way round', () => {
    const wide = diagonalM({ south: 10, north: 10.001, west: -179, east: 179 });
    expect(wide).toBe(diagonalM({ south: 10, north: 10.001, west: -90, east: 90 }));
    expect(wide).toBeGreaterThan(10_000_000);
  });
});
