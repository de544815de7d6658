/**
 * The frozen table file of a format version (docs/code-format.md §6): band column counts, the
 * covered countries, and band by band the runs of blocks with the set of countries that cover them.
 *
 * Everything is an unsigned LEB128 varint except the magic and the two-letter codes, so the file is
 * small and has no byte-order or alignment questions.
 */

/** What a run of blocks is: the countries whose coverage holds it, and whether one country fills it. */
export interface BlockClass {
  /**
   * True when no country border crosses the block and one country holds all of it: every cell there
   * belongs to `members[0]` without a point-in-polygon test. False when borders cross it, or part of
   * it lies outside every country: each cell then needs the country lookup of its centre.
   */
  pure: boolean;
  /** Indexes into `countries`, ascending. */
  members: number[];
}

export interface TableData {
  version: number;
  /** Columns of each band, south to north. */
  columns: Uint32Array;
  /** Covered ISO codes, ascending. */
  countries: string[];
  classes: BlockClass[];
  /** Runs of covered blocks; those of band b are `bandStart[b]` … `bandStart[b + 1] − 1`, west to east. */
  runs: { bandStart: Uint32Array; first: Uint32Array; length: Uint32Array; cls: Uint32Array };
}

const MAGIC = 'LOCT';

export function writeTableFile(data: TableData): Uint8Array {
  const out: number[] = [];
  const uint = (value: number): void => {
    if (!Number.isInteger(value) || value < 0) throw new Error(`not a varint: ${value}`);
    let v = value;
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  };
  const ascii = (text: string): void => {
    for (const ch of text) out.push(ch.charCodeAt(0));
  };

  ascii(MAGIC);
  uint(data.version);
  uint(data.columns.length);
  for (const n of data.columns) uint(n);
  uint(data.countries.length);
  for (const code of data.countries) ascii(code);
  uint(data.classes.length);
  for (const cls of data.classes) {
    uint(cls.pure ? 1 : 0);
    uint(cls.members.length);
    for (const m of cls.members) uint(m);
  }
  const { bandStart, first, length, cls } = data.runs;
  for (let band = 0; band < data.columns.length; band++) {
    uint(bandStart[band + 1] - bandStart[band]);
    let next = 0;
    for (let r = bandStart[band]; r < bandStart[band + 1]; r++) {
      uint(first[r] - next);
      uint(length[r]);
      uint(cls[r]);
      next = first[r] + length[r];
    }
  }
  return Uint8Array.from(out);
}

export function readTableFile(bytes: Uint8Array): TableData {
  let pos = 0;
  const fail = (why: string): never => {
    throw new Error(`table file: ${why} at byte ${pos}`);
  };
  const uint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (pos >= bytes.length) fail('unexpected end');
      const b = bytes[pos++];
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
  };
  const ascii = (count: number): string => {
    if (pos + count > bytes.length) fail('unexpected end');
    const text = String.fromCharCode(...bytes.subarray(pos, pos + count));
    pos += count;
    return text;
  };

  if (ascii(MAGIC.length) !== MAGIC) fail('bad magic');
  const version = uint();
  const bands = uint();
  const columns = new Uint32Array(bands);
  for (let b = 0; b < bands; b++) columns[b] = uint();
  const countries = Array.from({ length: uint() }, () => ascii(2));
  const classes: BlockClass[] = Array.from({ length: uint() }, () => {
    const pure = uint() === 1;
    const members = Array.from({ length: uint() }, () => uint());
    return { pure, members };
  });

  const bandStart = new Uint32Array(bands + 1);
  const first: number[] = [];
  const length: number[] = [];
  const cls: number[] = [];
  for (let band = 0; band < bands; band++) {
    const count = uint();
    let next = 0;
    for (let r = 0; r < count; r++) {
      const start = next + uint();
      const len = uint();
      first.push(start);
      length.push(len);
      cls.push(uint());
      next = start + len;
    }
    bandStart[band + 1] = first.length;
  }
  if (pos !== bytes.length) fail('trailing bytes');
  return {
    version,
    columns,
    countries,
    classes,
    runs: { bandStart, first: Uint32Array.from(first), length: Uint32Array.from(length), cls: Uint32Array.from(cls) },
  };
}
