import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coverage } from './shipped-table.ts';
import {
  BANDS,
  BLOCK_SIZE,
  EARTH_RADIUS_M,
  ROWS,
  bandOf,
  blocksInBand,
  cellBounds,
  colOf,
  colWest,
  designBandColumns,
  rowOf,
  rowSouth,
} from './grid.ts';

/** Great-circle distance in metres on the format's sphere. */
function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

const columns = coverage().columns;

describe('grid', () => {
  it('has 5148 bands of 1296 rows', () => {
    expect(ROWS).toBe(6_671_808);
    expect(BANDS * BLOCK_SIZE).toBe(ROWS);
    expect(rowSouth(0)).toBe(-90);
    expect(rowSouth(ROWS)).toBe(90);
    expect(rowSouth(ROWS / 2)).toBe(0);
  });

  it('puts every latitude in the row whose half-open bounds hold it', () => {
    fc.assert(
      fc.property(fc.double({ min: -90, max: 90, noNaN: true }), (lat) => {
        const row = rowOf(lat);
        expect(row).toBeGreaterThanOrEqual(0);
        expect(row).toBeLessThan(ROWS);
        expect(rowSouth(row)).toBeLessThanOrEqual(lat);
        if (lat < 90) expect(lat).toBeLessThan(rowSouth(row + 1));
      }),
      { numRuns: 5000 },
    );
  });

  it('puts row edges in the row to their north, and latitude 90 in the last row', () => {
    for (const row of [0, 1, 647, 648, 1295, 1296, ROWS / 2, ROWS - 2, ROWS - 1]) expect(rowOf(rowSouth(row))).toBe(row);
    expect(rowOf(90)).toBe(ROWS - 1);
    expect(rowOf(-90)).toBe(0);
  });

  it('puts every longitude in the column whose half-open bounds hold it, 180 being −180', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: BANDS - 1 }), fc.double({ min: -180, max: 180, noNaN: true }), (band, lng) => {
        const n = columns[band];
        const col = colOf(lng, n);
        expect(col).toBeGreaterThanOrEqual(0);
        expect(col).toBeLessThan(n);
        if (lng === 180) {
          expect(col).toBe(0);
        } else {
          expect(colWest(col, n)).toBeLessThanOrEqual(lng);
          expect(lng).toBeLessThan(colWest(col + 1, n));
        }
      }),
      { numRuns: 5000 },
    );
    const n = columns[2600];
    expect(colOf(-180, n)).toBe(0);
    expect(colOf(180, n)).toBe(0);
    expect(colOf(colWest(n - 1, n), n)).toBe(n - 1);
  });

  it('freezes the design formula in the table: columns from the band edge nearer the equator', () => {
    for (let band = 0; band < BANDS; band++) expect(columns[band]).toBe(designBandColumns(band));
    // Symmetric about the equator, widest next to it, and the equator itself is a band edge.
    for (let band = 0; band < BANDS / 2; band++) expect(columns[band]).toBe(columns[BANDS - 1 - band]);
    expect(columns[BANDS / 2]).toBe(Math.ceil((2 * Math.PI * EARTH_RADIUS_M) / 3));
    expect(Math.max(...columns)).toBe(columns[BANDS / 2]);
    expect(blocksInBand(columns[BANDS / 2])).toBe(10_296);
  });

  it('makes cells 2.99–3.01 m tall and 2.7–3.0 m wide below 80° latitude', () => {
    fc.assert(
      fc.property(fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: -180, max: 179.9999, noNaN: true }), (lat, lng) => {
        const row = rowOf(lat);
        const n = columns[bandOf(row)];
        const cell = cellBounds(row, colOf(lng, n), n);
        const height = haversine(cell.south, cell.west, cell.north, cell.west);
        const widthSouth = haversine(cell.south, cell.west, cell.south, cell.east);
        const widthNorth = haversine(cell.north, cell.west, cell.north, cell.east);
        expect(height).toBeGreaterThanOrEqual(2.99);
        expect(height).toBeLessThanOrEqual(3.01);
        for (const width of [widthSouth, widthNorth]) {
          expect(width).toBeGreaterThanOrEqual(2.7);
          expect(width).toBeLessThanOrEqual(3.0);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps cells at most 3 m wide up to the poles', () => {
    for (const band of [0, 1, 100, 5046, BANDS - 1]) {
      const n = columns[band];
      const edge = band < BANDS / 2 ? rowSouth((band + 1) * BLOCK_SIZE) : rowSouth(band * BLOCK_SIZE);
      expect(haversine(edge, 0, edge, 360 / n)).toBeLessThanOrEqual(3.0 + 1e-9);
    }
  });
});
