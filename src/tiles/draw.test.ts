import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { STYLE_NAMES } from '../embed/style-names.ts';
import { TILE_SIZE, landMask, renderTile } from './draw.ts';
import { checkTile } from './tile-address.ts';

/** The tile at zoom z holding (lat, lng), and the pixel of the point inside it. */
function locate(lat: number, lng: number, z: number) {
  const world = TILE_SIZE * 2 ** z;
  const px = ((lng + 180) / 360) * world;
  const phi = (lat * Math.PI) / 180;
  const py = ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * world;
  return { x: Math.floor(px / TILE_SIZE), y: Math.floor(py / TILE_SIZE), col: Math.floor(px % TILE_SIZE), row: Math.floor(py % TILE_SIZE) };
}

function pixel(style: string, lat: number, lng: number, z: number): number[] {
  const at = locate(lat, lng, z);
  const png = PNG.sync.read(renderTile(style, z, at.x, at.y));
  const o = (at.row * png.width + at.col) * 4;
  return [...png.data.subarray(o, o + 3)];
}

const PLACES = {
  paris: [48.8566, 2.3522],
  centralAustralia: [-25, 134],
  midAtlantic: [30, -40],
  pacific: [0, -150],
} as const;

describe('offline tiles', () => {
  it('are 256 px PNG images', () => {
    const png = PNG.sync.read(renderTile('streets', 0, 0, 0));
    expect([png.width, png.height]).toEqual([256, 256]);
  });

  it('tell land from sea at known places, for every style and at low and high zoom', () => {
    for (const style of STYLE_NAMES) {
      for (const z of [3, 9]) {
        const land = [pixel(style, ...PLACES.paris, z), pixel(style, ...PLACES.centralAustralia, z)];
        const sea = [pixel(style, ...PLACES.midAtlantic, z), pixel(style, ...PLACES.pacific, z)];
        const distance = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
        for (const l of land) for (const s of sea) expect(distance(l, s), `${style} z${z}`).toBeGreaterThan(40);
      }
    }
  });

  it('mark land in the mask where land is, across the antimeridian too', () => {
    const inMask = (lat: number, lng: number, z: number) => {
      const at = locate(lat, lng, z);
      return landMask(z, at.x, at.y)[at.row * TILE_SIZE + at.col];
    };
    expect(inMask(...PLACES.paris, 5)).toBe(1);
    expect(inMask(...PLACES.midAtlantic, 5)).toBe(0);
    expect(inMask(66.5, 179.5, 6)).toBe(1); // Chukotka, whose outline crosses 180°
    expect(inMask(66.5, -179.5, 6)).toBe(1);
    expect(inMask(-80, 0, 4)).toBe(1); // Antarctica, closed along the pole
    expect(inMask(-60, 0, 4)).toBe(0);
  });

  it('differ between styles', () => {
    const tiles = STYLE_NAMES.map((style) => PNG.sync.read(renderTile(style, 2, 2, 1)).data);
    for (let a = 0; a < tiles.length; a++) for (let b = a + 1; b < tiles.length; b++) expect(tiles[a].equals(tiles[b])).toBe(false);
  });

  it('reject a bad style, zoom or tile address with a message that shows it', () => {
    expect(() => checkTile('night', 1, 0, 0)).toThrow(/one of streets, satellite, traffic, biking; received "night"/);
    expect(() => checkTile('streets', 21, 0, 0)).toThrow(/z must be an integer from 0 to 20; received 21/);
    expect(() => checkTile('streets', 1.5, 0, 0)).toThrow(RangeError);
    expect(() => checkTile('streets', 2, 4, 0)).toThrow(/from 0 to 3 at zoom 2; received 4, 0/);
    expect(() => checkTile('streets', 2, 0, -1)).toThrow(RangeError);
    expect(() => renderTile('streets', 2, 0, 4)).toThrow(RangeError);
  });
});
