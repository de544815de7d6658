import { describe, expect, it } from 'vitest';
import { blockLines } from './block-lines.ts';
import { coverage } from './shipped-table.ts';
import { BLOCK_SIZE, bandOf, colOf, rowOf, rowSouth } from './grid.ts';

const columns = Array.from(coverage().columns);
const columnsOf = (band: number) => columns[band];

describe('the block outlines', () => {
  it('are the band edges and each band’s block edges, every 1296 rows and columns, across an area', () => {
    // About 20 km × 15 km around Paris: a few bands and blocks.
    const bounds = { south: 48.79, north: 48.93, west: 2.2, east: 2.47 };
    const lines = blockLines(bounds, columnsOf)!;
    expect(lines.rows[0]).toBeLessThanOrEqual(bounds.south);
    expect(lines.rows.at(-1)).toBeGreaterThan(bounds.north);
    for (const lat of lines.rows) expect(rowOf(lat) % BLOCK_SIZE).toBe(0);
    for (let i = 1; i < lines.rows.length; i++) expect((lines.rows[i] - lines.rows[i - 1]) * 111_195).toBeCloseTo(3888, -1);
    expect(lines.bands).toHaveLength(lines.rows.length - 1);
    for (const band of lines.bands) {
      const index = bandOf(rowOf((band.south + band.north) / 2));
      const count = columnsOf(index);
      expect(band.lngs[0]).toBeLessThanOrEqual(bounds.west);
      expect(band.lngs.at(-1)).toBeGreaterThan(bounds.east);
      for (const lng of band.lngs) expect(colOf(lng, count) % BLOCK_SIZE).toBe(0);
      // Measured along the band's edge nearer the equator, where its cells are 3 m at most.
      const width = (band.lngs[1] - band.lngs[0]) * 111_195 * Math.cos((rowSouth(index * BLOCK_SIZE) * Math.PI) / 180);
      expect(width).toBeGreaterThan(3800);
      expect(width).toBeLessThanOrEqual(3888);
    }
    expect(lines.bands[0].south).toBe(bounds.south);
    expect(lines.bands.at(-1)!.north).toBe(bounds.north);
  });

  it('end a band at 180°, after its narrower last block', () => {
    const lines = blockLines({ south: 0.001, north: 0.002, west: 179.9, east: 179.99999 }, columnsOf)!;
    const [band] = lines.bands;
    expect(band.lngs.at(-1)).toBe(180);
    expect(band.lngs.at(-2)).toBeLessThan(180);
    const count = columnsOf(bandOf(rowOf(0.001)));
    // 1296 does not divide the band's columns: the last block is narrower than the others.
    expect(count % BLOCK_SIZE).not.toBe(0);
    expect(180 - band.lngs.at(-2)!).toBeLessThan(band.lngs.at(-2)! - band.lngs.at(-3)!);
  });

  it('reach the north pole and no further', () => {
    const lines = blockLines({ south: 89.99, north: 90, west: 0, east: 1 }, columnsOf)!;
    expect(lines.rows.at(-1)).toBe(rowSouth(rowOf(90) + 1));
    expect(lines.rows.at(-1)).toBe(90);
  });

  it('are not drawn for an area far too big for them', () => {
    expect(blockLines({ south: -60, north: 60, west: -180, east: 180 }, columnsOf)).toBeNull();
  });
});
