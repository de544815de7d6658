import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coverage } from './shipped-table.ts';
import { BANDS } from './grid.ts';
import { ByteReader } from './table-bytes.ts';
import { readTableGrid, tableGrid } from './table-grid.ts';

const table = (name: string) => new Uint8Array(readFileSync(new URL(`./tables/${name}`, import.meta.url)));
const shipped = table('v1r3.bin');

/** Where the column counts end in `bytes`: the length of the small part. */
function gridEnd(bytes: Uint8Array): number {
  const input = new ByteReader(bytes);
  readTableGrid(input);
  return input.offset;
}

describe('the grid of a table file', () => {
  it('is the format, revision and column counts the codec reads from the whole file', () => {
    const grid = tableGrid(shipped);
    expect(grid.version).toBe(1);
    expect(grid.revision).toBe(3);
    expect(grid.columns).toHaveLength(BANDS);
    expect(grid.columns).toEqual(coverage().columns);
  });

  it('is read from the small part of the file alone, and refuses a part that stops inside the counts', () => {
    const end = gridEnd(shipped);
    // The counts are a few bytes each: a small part of the 714 KB file.
    expect(end).toBeGreaterThan(BANDS * 2);
    expect(end).toBeLessThan(25_000);
    expect(tableGrid(shipped.subarray(0, end))).toEqual(tableGrid(shipped));
    expect(() => tableGrid(shipped.subarray(0, end - 1))).toThrow(/table file: unexpected end/);
  });

  it('reads revision 1, which has no revision field, and revision 2 alike', () => {
    for (const [name, revision] of [['v1.bin', 1], ['v1r2.bin', 2]] as const) {
      const grid = tableGrid(table(name));
      expect(grid.revision).toBe(revision);
      expect(grid.columns).toEqual(tableGrid(shipped).columns);
    }
  });

  it('refuses another file, format or revision', () => {
    expect(() => tableGrid(new TextEncoder().encode('PNG!'))).toThrow('table file: bad magic at byte 4');
    const patched = (at: number, value: number) => Uint8Array.from(shipped.subarray(0, 64), (b, i) => (i === at ? value : b));
    expect(() => tableGrid(patched(4, 2))).toThrow('table file: format 2 is not one this reader knows (it reads format 1) at byte 5');
    expect(() => tableGrid(patched(5, 4))).toThrow('table file: revision 4 of format 1 is not one this reader knows (it reads revisions 1, 2, 3) at byte 6');
  });
});
