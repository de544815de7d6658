import { describe, expect, it } from 'vitest';
import { readTableFile, writeTableFile, type TableData } from './table-file.ts';

const sample: TableData = {
  version: 1,
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
};

describe('table file', () => {
  it('round-trips its data, large varints included', () => {
    expect(readTableFile(writeTableFile(sample))).toEqual(sample);
  });

  it('refuses a file that is not a table, is cut short, or has trailing bytes', () => {
    const bytes = writeTableFile(sample);
    expect(() => readTableFile(Uint8Array.from([...bytes.slice(0, 3), 0x58, ...bytes.slice(4)]))).toThrow(/bad magic/);
    expect(() => readTableFile(bytes.slice(0, bytes.length - 1))).toThrow(/unexpected end/);
    expect(() => readTableFile(Uint8Array.from([...bytes, 0]))).toThrow(/trailing bytes/);
  });

  it('refuses to write what a varint cannot hold', () => {
    expect(() => writeTableFile({ ...sample, columns: Float64Array.from([1.5]) as unknown as Uint32Array })).toThrow(/not a varint/);
  });
});
