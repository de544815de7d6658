import { describe, expect, it } from 'vitest';
import { BLOCK_SIZE, bandOf, colCentre, rowCentre, rowOf, rowSouth } from './grid.ts';
import { encode } from './codec.ts';
import { neighbours } from './codec.ts';
import { coverage } from './shipped-table.ts';
import { gridLines, neighbourCentre } from './grid-lines.ts';

const columns = Array.from(coverage().columns);
const columnsOf = (band: number) => columns[band];

describe('the 3 m grid lines', () => {
  it('are the row and column edges of the format across an area', () => {
    // About 150 m × 100 m by the Eiffel Tower: some fifty rows and thirty columns.
    const bounds = { south: 48.8575, north: 48.859, west: 2.2935, east: 2.2955 };
    const lines = gridLines(bounds, columnsOf)!;
    expect(lines.rows.length).toBeGreaterThan(50);
    expect(lines.rows[0]).toBeLessThanOrEqual(bounds.south);
    expect(lines.rows.at(-1)).toBeGreaterThan(bounds.north);
    for (let i = 1; i < lines.rows.length; i++) expect((lines.rows[i] - lines.rows[i - 1]) * 111_195).toBeCloseTo(3, 2);
    expect(lines.bands).toHaveLength(1);
    const [band] = lines.bands;
    expect(band.lngs[0]).toBeLessThanOrEqual(bounds.west);
    expect(band.lngs.at(-1)).toBeGreaterThan(bounds.east);
    const width = (band.lngs[1] - band.lngs[0]) * 111_195 * Math.cos((48.858 * Math.PI) / 180);
    expect(width).toBeGreaterThan(2.9);
    expect(width).toBeLessThanOrEqual(3);
  });

  it('change their column width where a band ends', () => {
    const edge = rowSouth(Math.ceil(rowOf(60) / BLOCK_SIZE) * BLOCK_SIZE);
    const lines = gridLines({ south: edge - 0.0005, north: edge + 0.0005, west: 10, east: 10.001 }, columnsOf)!;
    expect(lines.bands).toHaveLength(2);
    expect(lines.bands[0].north).toBe(edge);
    expect(lines.bands[1].south).toBe(edge);
    expect(lines.bands[0].lngs[1] - lines.bands[0].lngs[0]).not.toBe(lines.bands[1].lngs[1] - lines.bands[1].lngs[0]);
  });

  it('are not drawn for an area far too big for a grid', () => {
    expect(gridLines({ south: 40, north: 50, west: 0, east: 10 }, columnsOf)).toBeNull();
  });
});

describe('keyboard cell steps', () => {
  const here = { lat: 48.8584, lng: 2.2945 };
  it('move one cell in each direction and back', () => {
    const east = neighbourCentre(here, 1, 0, columns);
    const back = neighbourCentre(east, -1, 0, columns);
    const start = neighbourCentre(here, 0, 0, columns);
    expect(back).toEqual(start);
    expect(east.lat).toBe(start.lat);
    expect((east.lng - start.lng) * 111_195 * Math.cos((here.lat * Math.PI) / 180)).toBeCloseTo(3, 1);
    const north = neighbourCentre(here, 0, 1, columns);
    expect(north.lng).toBe(start.lng);
    expect((north.lat - start.lat) * 111_195).toBeCloseTo(3, 2);
  });

  it('wrap around the antimeridian', () => {
    const count = columns[bandOf(rowOf(0))];
    const last = neighbourCentre({ lat: 0, lng: 179.99999999 }, 0, 0, columns);
    expect(last.lng).toBe(colCentre(count - 1, count));
    expect(neighbourCentre(last, 1, 0, columns).lng).toBe(colCentre(0, count));
    expect(neighbourCentre({ lat: 0, lng: -180 }, -1, 0, columns).lng).toBe(colCentre(count - 1, count));
  });

  it('land on the neighbours of the code, across a band edge too, and stay at a pole', () => {
    // The last row of a band at 60° N: north of it the band has fewer columns.
    const row = Math.ceil(rowOf(60) / BLOCK_SIZE) * BLOCK_SIZE - 1;
    const start = neighbourCentre({ lat: rowCentre(row), lng: 10.00001 }, 0, 0, columns);
    const here = encode(start.lat, start.lng).loc_code;
    for (const [direction, east, north] of [['n', 0, 1], ['s', 0, -1], ['e', 1, 0], ['w', -1, 0]] as const) {
      const next = neighbourCentre(start, east, north, columns);
      expect(encode(next.lat, next.lng).loc_code, direction).toBe(neighbours(here)[direction]);
    }
    const pole = neighbourCentre({ lat: 90, lng: 0 }, 0, 1, columns);
    expect(pole).toEqual(neighbourCentre({ lat: 90, lng: 0 }, 0, 0, columns));
  });
});
