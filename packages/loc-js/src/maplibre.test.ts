import { describe, expect, it, vi } from 'vitest';
import { coverage } from '../../../src/code/shipped-table.ts';
import { blockLines, gridLines } from './grid.ts';
import { addLocGrid, viewFeatures } from './maplibre.ts';

const grid = { columns: coverage().columns };

/** What viewFeatures reads of a MapLibre map: its bounds and its zoom. */
const view = (south: number, west: number, north: number, east: number, zoom: number) => ({
  getBounds: () => ({ getSouth: () => south, getWest: () => west, getNorth: () => north, getEast: () => east }) as never,
  getZoom: () => zoom,
});

type Lines = [number, number][][];
const linesOf = (collection: GeoJSON.FeatureCollection, index = 0) => (collection.features[index].geometry as GeoJSON.MultiLineString).coordinates as Lines;

describe('loc-js/maplibre’s source data', () => {
  it('holds the cell lines in view from MapLibre’s zoom 17 (Leaflet’s 18), the block outlines from 10, nothing below', () => {
    const [south, west, north, east] = [48.8575, 2.2935, 48.859, 2.2955];
    const cells = viewFeatures(grid, view(south, west, north, east, 17));
    expect(cells.features.map((feature) => feature.properties)).toEqual([{ kind: 'cells' }]);
    const expected = gridLines(grid, { south, west, north, east })!;
    const lines = linesOf(cells);
    // A line per row edge across the view, then per band a line per column edge down its part of the view.
    expect(lines).toHaveLength(expected.rows.length + expected.bands[0].lngs.length);
    expect(lines[0]).toEqual([[west, expected.rows[0]], [east, expected.rows[0]]]);
    expect(lines.at(-1)).toEqual([[expected.bands[0].lngs.at(-1), south], [expected.bands[0].lngs.at(-1), north]]);

    const blocks = viewFeatures(grid, view(48.7, 2.1, 49, 2.6, 10));
    expect(blocks.features[0].properties).toEqual({ kind: 'blocks' });
    const outlines = blockLines(grid, { south: 48.7, west: 2.1, north: 49, east: 2.6 })!;
    expect(linesOf(blocks)).toHaveLength(outlines.rows.length + outlines.bands.reduce((sum, band) => sum + band.lngs.length, 0));
    expect(viewFeatures(grid, view(40, -5, 52, 10, 9)).features).toEqual([]);
  });

  it('cuts a view across the antimeridian in two, each part on its own side', () => {
    const data = viewFeatures(grid, view(-17.0002, 179.9995, -17, 180.0005, 19));
    expect(data.features).toHaveLength(2);
    const [west, east] = [linesOf(data, 0), linesOf(data, 1)];
    for (const line of west) for (const [lng] of line) expect(lng).toBeLessThanOrEqual(180);
    for (const line of east) for (const [lng] of line) expect(lng).toBeGreaterThanOrEqual(180);
    // The eastern part is the grid's western edge, moved one world east.
    expect(east.at(-1)![0][0] - 360).toBe(gridLines(grid, { south: -17.0002, west: -180, north: -17, east: 0.0005 - 180 })!.bands[0].lngs.at(-1));
  });

  it('holds a view of another copy of the world at that copy’s longitudes', () => {
    const here = linesOf(viewFeatures(grid, view(48.8575, 2.2935, 48.859, 2.2955, 17)));
    const copy = linesOf(viewFeatures(grid, view(48.8575, 2.2935 + 360, 48.859, 2.2955 + 360, 17)));
    expect(copy.length).toBe(here.length);
    expect(copy.at(-1)![0][0]).toBeCloseTo(here.at(-1)![0][0] + 360, 9);
  });
});

describe('addLocGrid', () => {
  it('makes a grid that failed to load the map’s error event, as a tile that failed is', async () => {
    // Of the map, only what the helper touches before its style has loaded.
    const map = { isStyleLoaded: () => false, once: vi.fn(), off: vi.fn(), fire: vi.fn() };
    const failure = new Error('loadGrid: https://loc.example/embed/grid.json answered 503');
    const handle = addLocGrid(map as never, { grid: Promise.reject(failure) });
    await vi.waitFor(() => expect(map.fire).toHaveBeenCalledWith('error', { error: failure }));
    expect(map.once).toHaveBeenCalledWith('load', expect.any(Function));
    handle.remove();
    expect(map.off).toHaveBeenCalledWith('load', map.once.mock.calls[0][1]);
  });
});
