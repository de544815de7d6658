/**
 * The border polygons of a table (docs/code-format.md §4, §6): the data that decides the country of a
 * cell centre in a mixed block, in the order the test visits them.
 *
 * Coordinates are stored as integers of 10⁻⁵ degree. A reader gets each coordinate back as `n / 100000`,
 * one IEEE 754 division of two exact doubles, correctly rounded: the double nearest n · 10⁻⁵, which is
 * the double that parsing the decimal of n · 10⁻⁵ gives. The writer refuses a coordinate that this does
 * not give back exactly, so the polygons a reader rebuilds are the source's, bit for bit.
 */
import type { ByteReader, ByteWriter } from './table-bytes.ts';

/** Stored coordinates are integers of 1 / SCALE degree. */
export const COORDINATE_SCALE = 100_000;

/**
 * Polygons in test order, flattened: polygon p has rings `polygonStart[p]` … `polygonStart[p + 1] − 1`,
 * ring r has points `ringStart[r]` … `ringStart[r + 1] − 1`, point i is (`xs[i]`, `ys[i]`) = (longitude,
 * latitude). The rings are as given, closing point included.
 */
export interface BorderPolygons {
  /** The codes polygons answer, ascending. */
  codes: string[];
  /** Per polygon: 1 + its index into `codes`, or 0 for a polygon that answers no code. */
  code: Uint16Array;
  /** Per polygon p, its box: minX, minY, maxX, maxY at 4p … 4p + 3. */
  boxes: Float64Array;
  polygonStart: Uint32Array;
  ringStart: Uint32Array;
  xs: Float64Array;
  ys: Float64Array;
}

/** The stored integer of a coordinate; throws when `n / 100000` would not give it back exactly. */
export function scaledCoordinate(value: number): number {
  const n = Math.round(value * COORDINATE_SCALE);
  if (!Number.isSafeInteger(n) || n / COORDINATE_SCALE !== value) {
    throw new Error(`border coordinate ${value} is not a whole number of 10⁻⁵ degree`);
  }
  return n;
}

export function writeBorderSection(borders: BorderPolygons, out: ByteWriter): void {
  const { codes, code, boxes, polygonStart, ringStart, xs, ys } = borders;
  out.uint(codes.length);
  for (const c of codes) out.ascii(c);
  out.uint(code.length);
  for (let p = 0; p < code.length; p++) {
    out.uint(code[p]);
    for (let k = 4 * p; k < 4 * p + 4; k++) out.int(scaledCoordinate(boxes[k]));
    out.uint(polygonStart[p + 1] - polygonStart[p]);
    for (let r = polygonStart[p]; r < polygonStart[p + 1]; r++) {
      out.uint(ringStart[r + 1] - ringStart[r]);
      let x = 0;
      let y = 0;
      for (let i = ringStart[r]; i < ringStart[r + 1]; i++) {
        const nx = scaledCoordinate(xs[i]);
        const ny = scaledCoordinate(ys[i]);
        out.int(nx - x);
        out.int(ny - y);
        x = nx;
        y = ny;
      }
    }
  }
}

export function readBorderSection(input: ByteReader): BorderPolygons {
  const codes = Array.from({ length: input.uint() }, () => input.ascii(2));
  const count = input.uint();
  const code = new Uint16Array(count);
  const boxes = new Float64Array(4 * count);
  const polygonStart = new Uint32Array(count + 1);
  const ringStart: number[] = [0];
  const xs: number[] = [];
  const ys: number[] = [];
  for (let p = 0; p < count; p++) {
    code[p] = input.uint();
    if (code[p] > codes.length) input.fail(`polygon ${p} names code ${code[p]} of ${codes.length}`);
    for (let k = 4 * p; k < 4 * p + 4; k++) boxes[k] = input.int() / COORDINATE_SCALE;
    const rings = input.uint();
    polygonStart[p + 1] = polygonStart[p] + rings;
    for (let r = 0; r < rings; r++) {
      const points = input.uint();
      let x = 0;
      let y = 0;
      for (let i = 0; i < points; i++) {
        x += input.int();
        y += input.int();
        xs.push(x / COORDINATE_SCALE);
        ys.push(y / COORDINATE_SCALE);
      }
      ringStart.push(xs.length);
    }
  }
  return {
    codes,
    code,
    boxes,
    polygonStart,
    ringStart: Uint32Array.from(ringStart),
    xs: Float64Array.from(xs),
    ys: Float64Array.from(ys),
  };
}
