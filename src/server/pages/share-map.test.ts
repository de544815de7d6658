/**
 * The share page's map layout: tiles that fill the box around the cell, the cell's outline where Web
 * Mercator puts it, the antimeridian, the edge of the world, and URLs built as Leaflet builds them.
 */
import { describe, expect, it } from 'vitest';
import { decode, type CellBounds } from '../../code/index.ts';
import type { TileLayerConfig } from '../../embed/protocol.ts';
import { DEFAULT_LAYERS } from '../../tiles/styles.ts';
import { MAP_HEIGHT_PX, MAP_MAX_WIDTH_PX, MAP_ZOOM, mapLayout, tileUrl, type MapTile } from './share-map.ts';

const STREETS = DEFAULT_LAYERS.streets;

/** World pixels at `zoom`, by the sine form of the projection (share-map.ts uses the tangent form). */
function project(lat: number, lng: number, zoom: number) {
  const world = 256 * 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  return { x: (world * (lng + 180)) / 360, y: world * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) };
}

/** Whether the tiles leave no point of the box (centred on the origin) uncovered. */
function coversBox(tiles: MapTile[], width: number, height: number): boolean {
  // Every tile edge and box edge splits the box into rectangles; each rectangle's centre must be on a tile.
  const xs = [...new Set([-width / 2, width / 2, ...tiles.flatMap((t) => [t.left, t.left + t.size])])].filter((x) => Math.abs(x) <= width / 2).sort((a, b) => a - b);
  const ys = [...new Set([-height / 2, height / 2, ...tiles.flatMap((t) => [t.top, t.top + t.size])])].filter((y) => Math.abs(y) <= height / 2).sort((a, b) => a - b);
  for (let i = 1; i < xs.length; i++) {
    for (let j = 1; j < ys.length; j++) {
      const [x, y] = [(xs[i - 1] + xs[i]) / 2, (ys[j - 1] + ys[j]) / 2];
      if (!tiles.some((t) => t.left <= x && x < t.left + t.size && t.top <= y && y < t.top + t.size)) return false;
    }
  }
  return true;
}

/** The tile coordinates in a tile's URL (the default streets template, `…/{z}/{x}/{y}.png`). */
function coordinates(tile: MapTile): { z: number; x: number; y: number } {
  const [z, x, y] = /\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(tile.url)!.slice(1).map(Number);
  return { z, x, y };
}

describe('share map layout', () => {
  it('outlines the cell where Web Mercator puts its bounds, in the middle of the box, over tiles that fill the box', () => {
    const { cell } = decode('FR-0RMB-CLY0');
    const layout = mapLayout(cell, [STREETS])!;
    expect(layout.zoom).toBe(MAP_ZOOM);
    const nw = project(cell.north, cell.west, MAP_ZOOM);
    const se = project(cell.south, cell.east, MAP_ZOOM);
    expect(layout.cell.width).toBeCloseTo(se.x - nw.x, 2);
    expect(layout.cell.height).toBeCloseTo(se.y - nw.y, 2);
    // Paris, 3 m: about 15 px on a side at zoom 19 — plain to see.
    expect(layout.cell.width).toBeGreaterThan(14);
    // The origin is the cell's centre, to the nearest pixel.
    expect(Math.abs(layout.cell.left + layout.cell.width / 2)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(layout.cell.top + layout.cell.height / 2)).toBeLessThanOrEqual(0.5);
    // Registered against the tiles: a tile's own x and y say where the origin is in the world.
    for (const tile of layout.tiles) {
      const { z, x, y } = coordinates(tile);
      expect(z).toBe(19);
      expect(nw.x - (x * 256 - tile.left)).toBeCloseTo(layout.cell.left, 2);
      expect(nw.y - (y * 256 - tile.top)).toBeCloseTo(layout.cell.top, 2);
    }
    expect(coversBox(layout.tiles, MAP_MAX_WIDTH_PX, MAP_HEIGHT_PX)).toBe(true);
    expect(layout.tiles.every((tile) => tile.referrerPolicy === 'strict-origin' && tile.size === 256)).toBe(true);
  });

  it('says how wide a box must be to show each tile: the tiles a narrower box shows still fill it', () => {
    const { tiles } = mapLayout(decode('FR-0RMB-CLY0').cell, [STREETS])!;
    for (let width = 240; width <= MAP_MAX_WIDTH_PX; width++) {
      const shown = tiles.filter((tile) => width / 2 > tile.reach);
      expect(coversBox(shown, width, MAP_HEIGHT_PX), `box ${width} px wide`).toBe(true);
      // And none of the others would show: each lies wholly beyond the box's edge.
      for (const tile of tiles.filter((t) => !shown.includes(t))) {
        expect(tile.left >= width / 2 || tile.left + tile.size <= -width / 2, `box ${width} px wide`).toBe(true);
      }
    }
  });

  it('wraps tile columns across the antimeridian', () => {
    // A cell of Fiji whose east edge is the antimeridian: the box reaches past it.
    const located = decode('FJ-04ZN-SSBU');
    expect(located.cell.east).toBe(180);
    const { tiles } = mapLayout(located.cell, [STREETS])!;
    const last = 2 ** 19 - 1;
    const row = tiles.filter((tile) => tile.top === tiles[0].top).sort((a, b) => a.left - b.left);
    const columns = row.map((tile) => coordinates(tile).x);
    expect(columns).toContain(last);
    expect(columns).toContain(0);
    expect(columns.every((x) => x >= 0 && x <= last)).toBe(true);
    // Column 0 is drawn right after the last column, not half a world away.
    const index = columns.indexOf(last);
    expect(columns[index + 1]).toBe(0);
    expect(row[index + 1].left).toBe(row[index].left + 256);
    expect(coversBox(tiles, MAP_MAX_WIDTH_PX, MAP_HEIGHT_PX)).toBe(true);
  });

  it('shows no map of a cell beyond Web Mercator’s edge, and leaves out rows past it near the edge', () => {
    const beyond: CellBounds = { north: 85.06, south: 85.0599, west: 10, east: 10.0003 };
    expect(mapLayout(beyond, [STREETS])).toBeNull();
    expect(mapLayout({ north: -85.0599, south: -85.06, west: 10, east: 10.0003 }, [STREETS])).toBeNull();
    // Just inside the edge: the cell is drawn, the tiles above the world's top row are not asked for.
    const edge = mapLayout({ north: 85.05112, south: 85.05109, west: 10, east: 10.0003 }, [STREETS])!;
    expect(edge).not.toBeNull();
    expect(edge.tiles.length).toBeGreaterThan(0);
    expect(edge.tiles.every((tile) => coordinates(tile).y >= 0)).toBe(true);
    expect(Math.min(...edge.tiles.map((tile) => tile.top))).toBeGreaterThan(-MAP_HEIGHT_PX / 2);
    // At the bottom edge, none below the last row.
    const south = mapLayout({ north: -85.05109, south: -85.05112, west: 10, east: 10.0003 }, [STREETS])!;
    expect(south.tiles.every((tile) => coordinates(tile).y <= 2 ** 19 - 1)).toBe(true);
    expect(Math.max(...south.tiles.map((tile) => tile.top + tile.size))).toBeLessThan(MAP_HEIGHT_PX / 2);
  });

  it('takes a layer’s highest native zoom and draws its tiles larger beyond it', () => {
    const layer: TileLayerConfig = { ...STREETS, maxNativeZoom: 18 };
    const { cell } = decode('FR-0RMB-CLY0');
    const layout = mapLayout(cell, [layer])!;
    expect(layout.tiles.every((tile) => tile.size === 512 && coordinates(tile).z === 18)).toBe(true);
    expect(coversBox(layout.tiles, MAP_MAX_WIDTH_PX, MAP_HEIGHT_PX)).toBe(true);
    const nw = project(cell.north, cell.west, MAP_ZOOM);
    const { x, y } = coordinates(layout.tiles[0]);
    expect(nw.x - (x * 512 - layout.tiles[0].left)).toBeCloseTo(layout.cell.left, 2);
    expect(nw.y - (y * 512 - layout.tiles[0].top)).toBeCloseTo(layout.cell.top, 2);
  });

  it('draws every layer, overlays translucent', () => {
    const overlay: TileLayerConfig = { url: 'https://traffic.example/{z}/{x}/{y}.png', attribution: 'T', maxNativeZoom: 19, referrerPolicy: 'no-referrer', overlay: { opacity: 0.9 } };
    const { tiles } = mapLayout(decode('FR-0RMB-CLY0').cell, [STREETS, overlay])!;
    const over = tiles.filter((tile) => tile.url.startsWith('https://traffic.example/'));
    expect(over.length * 2).toBe(tiles.length);
    expect(over.every((tile) => tile.opacity === 0.9 && tile.referrerPolicy === 'no-referrer')).toBe(true);
    expect(tiles.slice(0, over.length).every((tile) => tile.opacity === undefined)).toBe(true);
  });
});

describe('tile URLs', () => {
  it('fill Leaflet’s placeholders as Leaflet does', () => {
    const layer: TileLayerConfig = { url: 'https://{s}.tiles.example/{z}/{x}/{-y}{r}.png?y={y}', attribution: '', maxNativeZoom: 19, subdomains: 'abcd', referrerPolicy: 'no-referrer' };
    // Leaflet: subdomain index |x + y| mod the count; {-y} counted from the bottom row; {r} '' at 1×.
    expect(tileUrl(layer, 3, 5, 2)).toBe('https://d.tiles.example/3/5/5.png?y=2');
    expect(tileUrl({ ...layer, subdomains: undefined }, 3, 5, 2)).toBe('https://b.tiles.example/3/5/5.png?y=2');
  });
});
