import { describe, expect, it } from 'vitest';
import { BANDS, BLOCK_SIZE, designBandColumns } from '../grid.ts';
import { BlockGrid, forEachEdge, shiftRingNear, toRing } from './raster.ts';

const grid = new BlockGrid(Uint32Array.from({ length: BANDS }, (_, b) => designBandColumns(b)));
const equator = BANDS / 2; // the band just north of the equator

function edgeBlocks(x1: number, y1: number, x2: number, y2: number): string[] {
  const out: string[] = [];
  grid.forEachEdgeBlock(x1, y1, x2, y2, (band, first, last) => out.push(`${band}:${first}-${last}`));
  return out;
}

describe('block raster', () => {
  it('marks the blocks a short segment passes through, conservatively at block edges', () => {
    const west = grid.blockCentreLng(equator, 5000);
    const lat = grid.bandMid(equator);
    expect(edgeBlocks(west, lat, west + 0.001, lat)).toEqual([`${equator}:5000-5000`]);
    // A segment ending exactly on a block edge also touches the neighbour.
    const edge = (5001 * BLOCK_SIZE * 360) / grid.columns[equator] - 180;
    expect(edgeBlocks(west, lat, edge, lat)).toEqual([`${equator}:5000-5001`]);
  });

  it('crosses bands for a north–south segment and folds ranges over the antimeridian', () => {
    const lat = grid.bandMid(equator);
    const span = edgeBlocks(10, lat, 10, grid.bandMid(equator + 2));
    expect(span.map((s) => Number(s.split(':')[0]))).toEqual([equator, equator + 1, equator + 2]);
    const last = grid.blocks[equator] - 1;
    expect(edgeBlocks(179.99, lat, 180.01, lat)).toEqual([`${equator}:${last}-${last}`, `${equator}:0-0`]);
  });

  it('finds the blocks whose centres lie in a folded longitude range', () => {
    const hits: number[] = [];
    grid.forEachCentreIn(equator, 179.99, 180.01, (block) => hits.push(block));
    expect(hits).toEqual([grid.blocks[equator] - 1, 0].filter((b) => Math.abs(Math.abs(grid.blockCentreLng(equator, b)) - 180) < 0.01));
  });

  it('unwraps rings that world-atlas stitched across the antimeridian', () => {
    const ring = toRing(
      [
        [179, 0],
        [-179, 0],
        [-179, 1],
        [179, 1],
        [179, 0],
      ],
      true,
    );
    expect(Array.from(ring.xs)).toEqual([179, 181, 181, 179]);
    expect(Array.from(shiftRingNear(ring, -180).xs)).toEqual([-181, -179, -179, -181]);
    const edges: number[][] = [];
    forEachEdge(ring, (...e) => edges.push(e));
    expect(edges).toHaveLength(4);
    expect(() => toRing([[0, -80], [120, -80], [-120, -80], [0, -80]], true)).toThrow(/does not close/);
  });

  it('reports each band-middle crossing of a segment once', () => {
    const crossings: [number, number][] = [];
    grid.forEachMidCrossing(0, grid.bandSouth(equator), 2, grid.bandNorth(equator + 1), (band, x) => crossings.push([band, x]));
    expect(crossings.map(([band]) => band)).toEqual([equator, equator + 1]);
    expect(crossings[0][1]).toBeCloseTo(0.5, 6);
  });
});
