import { describe, expect, it } from 'vitest';
import { NO_FILL, SQUARES, type BlockFill } from './block-fills.ts';
import { writeBorderSection, type BorderPolygons } from './border-polygons.ts';
import { ByteWriter } from './table-bytes.ts';
import { readTableFile, writeTableFile, type TableData } from './table-file.ts';

const borders: BorderPolygons = {
  codes: ['FR', 'XK'],
  code: Uint16Array.from([2, 0, 1]),
  boxes: Float64Array.from([-1.5, 2, 3, 4.00001, 0, 0, 1, 1, -180, -90, 180, 90]),
  polygonStart: Uint32Array.from([0, 1, 3, 4]),
  ringStart: Uint32Array.from([0, 4, 8, 11, 15]),
  xs: Float64Array.from([-1.5, 3, 0, -1.5, 0, 1, 1, 0, 0.25, 0.5, 0.25, -180, 180, 180, -180]),
  ys: Float64Array.from([2, 2, 4.00001, 2, 0, 0, 1, 0, 0.25, 0.5, 0.25, -90, -90, 90, -90]),
};

const sample: TableData = {
  version: 1,
  revision: 2,
  columns: Uint32Array.from([5, 300_000, 13_343_392]),
  countries: ['FR', 'XK'],
  classes: [
    { pure: true, members: [0] },
    { pure: false, members: [0, 1] },
  ],
  runs: {
    bandStart: Uint32Array.from([0, 0, 2, 3]),
    first: Uint32Array.from([3, 10, 0]),
    length: Uint32Array.from([4, 200, 10_296]),
    cls: Uint32Array.from([0, 1, 0]),
  },
  borders,
  fills: null,
};

/** Squares of one block: the south half XK, the north half none, one square FR. */
const squares = Int16Array.from({ length: SQUARES }, (_, i) => (i === 700 ? 0 : i < SQUARES / 2 ? 1 : NO_FILL));
const fills: BlockFill[] = [
  { band: 1, block: 0, country: 1, squares: null },
  { band: 1, block: 0 + 2, country: NO_FILL, squares },
  { band: 2, block: 9, country: 0, squares: null },
];
const revision3: TableData = { ...sample, revision: 3, fills };

/** `bytes` with the varint at `at` (one byte) replaced by `value` (one byte). */
const patched = (bytes: Uint8Array, at: number, value: number): Uint8Array => Uint8Array.from(bytes, (b, i) => (i === at ? value : b));

describe('table file', () => {
  it('round-trips its data, large varints and border polygons included', () => {
    expect(readTableFile(writeTableFile(sample))).toEqual(sample);
  });

  it('round-trips revision 3\'s fills, by block and by square', () => {
    expect(readTableFile(writeTableFile(revision3))).toEqual(revision3);
    expect(() => writeTableFile({ ...revision3, fills: null })).toThrow(/from 3 on, and only they, have a fill section/);
    expect(() => writeTableFile({ ...sample, fills })).toThrow(/from 3 on, and only they, have a fill section/);
  });

  it('read lazily, reads the same borders and fills on first use, and refuses a bad tail only then', () => {
    const bytes = writeTableFile(revision3);
    expect(readTableFile(bytes, { lazy: true })).toEqual(revision3);
    const trailing = readTableFile(Uint8Array.from([...bytes, 0]), { lazy: true });
    expect(trailing.runs).toEqual(revision3.runs);
    expect(() => trailing.fills).toThrow(/trailing bytes/);
    expect(() => readTableFile(Uint8Array.from([...bytes, 0]))).toThrow(/trailing bytes/);
  });

  it('refuses fills out of order, outside the grid, or naming a country it lacks', () => {
    const write = (list: BlockFill[]): Uint8Array => writeTableFile({ ...revision3, fills: list });
    expect(() => write([fills[1], fills[0]])).toThrow(/band 1 block 0 is out of order/);
    expect(() => write([fills[0], fills[0]])).toThrow(/band 1 block 0 is out of order/);
    expect(() => write([{ ...fills[2], block: 10_297 }])).toThrow(/outside the grid/);
    expect(() => write([{ ...fills[0], country: 2 }])).toThrow(/names country 2 of 2/);
    expect(() => write([{ ...fills[0], country: NO_FILL }])).toThrow(/names country -1 of 2/);
    expect(() => write([{ ...fills[1], squares: squares.subarray(1) }])).toThrow(/1295 squares, not 1296/);
    // The last byte is the last fill's country, FR: 1 + its index.
    const bytes = write(fills);
    expect(bytes[bytes.length - 1]).toBe(1);
    expect(() => readTableFile(patched(bytes, bytes.length - 1, 3))).toThrow(/fill 2 names country 2 of 2/);
  });

  it('names its format and revision after the magic', () => {
    expect([...writeTableFile(sample).subarray(0, 6)]).toEqual([0x4c, 0x4f, 0x43, 0x54, 1, 2]);
  });

  it('reads revision 1, which has neither a revision field nor border polygons', () => {
    const revision1 = { ...sample, revision: 1, columns: new Uint32Array(5148).fill(7), runs: { ...sample.runs, bandStart: new Uint32Array(5149) }, borders: null, fills: null };
    const bytes = writeTableFile(revision1);
    expect([...bytes.subarray(4, 7)]).toEqual([1, 0x9c, 0x28]); // format 1, then 5148 bands
    expect(readTableFile(bytes)).toEqual({ ...revision1, runs: { ...revision1.runs, first: new Uint32Array(), length: new Uint32Array(), cls: new Uint32Array() } });
    expect(() => writeTableFile({ ...revision1, borders })).toThrow(/only it, has no border section/);
    expect(() => writeTableFile({ ...sample, borders: null })).toThrow(/only it, has no border section/);
  });

  it('refuses a format or a revision it does not know, naming it', () => {
    const bytes = writeTableFile(sample);
    expect(() => readTableFile(patched(bytes, 4, 2))).toThrow('table file: format 2 is not one this reader knows (it reads format 1) at byte 5');
    expect(() => readTableFile(patched(bytes, 5, 4))).toThrow('table file: revision 4 of format 1 is not one this reader knows (it reads revisions 1, 2, 3) at byte 6');
    expect(() => readTableFile(patched(bytes, 5, 0))).toThrow(/revision 0 of format 1 is not one this reader knows/);
  });

  it('gives back every coordinate exactly as the double its decimal parses to', () => {
    const { xs, ys, boxes } = readTableFile(writeTableFile(sample)).borders!;
    expect([...xs, ...ys, ...boxes].map(String)).toEqual([...borders.xs, ...borders.ys, ...borders.boxes].map(String));
    expect(ys[2]).toBe(Number('4.00001'));
  });

  it('refuses to write a coordinate that is not a whole number of 10⁻⁵ degree', () => {
    const xs = Float64Array.from(borders.xs);
    xs[1] = 0.1 + 0.2;
    expect(() => writeTableFile({ ...sample, borders: { ...borders, xs } })).toThrow(/border coordinate 0.30000000000000004 is not a whole number of 10⁻⁵ degree/);
    xs[1] = 1e-6;
    expect(() => writeTableFile({ ...sample, borders: { ...borders, xs } })).toThrow(/border coordinate 0.000001 is not/);
  });

  it('refuses a file that is not a table, is cut short, has trailing bytes, or names a code it lacks', () => {
    const bytes = writeTableFile(sample);
    expect(() => readTableFile(Uint8Array.from([...bytes.slice(0, 3), 0x58, ...bytes.slice(4)]))).toThrow(/bad magic/);
    expect(() => readTableFile(bytes.slice(0, bytes.length - 1))).toThrow(/unexpected end/);
    expect(() => readTableFile(Uint8Array.from([...bytes, 0]))).toThrow(/trailing bytes/);
    const section = new ByteWriter();
    writeBorderSection(borders, section);
    // The first polygon's code follows the code count, two codes and the polygon count.
    const codeAt = bytes.length - section.bytes().length + 1 + 4 + 1;
    expect(bytes[codeAt]).toBe(2);
    expect(() => readTableFile(patched(bytes, codeAt, 3))).toThrow(/polygon 0 names code 3 of 2/);
  });

  it('refuses to write what a varint cannot hold', () => {
    expect(() => writeTableFile({ ...sample, columns: Float64Array.from([1.5]) as unknown as Uint32Array })).toThrow(/not a varint/);
  });
});
