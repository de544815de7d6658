/**
 * The tile worker: the entry of the worker threads that draw offline tiles (offline.ts starts them,
 * build.mjs builds it to dist/tile-worker.js). One task, one tile; the address was checked before it
 * was handed over.
 */
import { renderTile } from './draw.ts';
import type { StyleName } from '../embed/style-names.ts';

/** What the service hands a worker: the tile to draw. */
export interface TileTask {
  style: StyleName;
  z: number;
  x: number;
  y: number;
}

/** The tile's PNG bytes (the service receives them as a Uint8Array). */
export default function drawTile({ style, z, x, y }: TileTask): Uint8Array {
  return renderTile(style, z, x, y);
}
