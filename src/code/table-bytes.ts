/**
 * The byte grammar of the table file (docs/code-format.md §6): unsigned LEB128 varints, zig-zag
 * signed varints and ASCII text, and nothing else, so the file has no byte-order or alignment
 * questions and any language reads it with a few lines.
 */

/** Appends the table file's primitives to a growing byte list. */
export class ByteWriter {
  private readonly out: number[] = [];

  /** An unsigned LEB128 varint: 7 bits per byte, least significant group first. */
  uint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a varint: ${value}`);
    let v = value;
    while (v >= 0x80) {
      this.out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.out.push(v);
  }

  /** A signed integer as a zig-zag varint: 0, −1, 1, −2 … are written 0, 1, 2, 3 … */
  int(value: number): void {
    if (!Number.isSafeInteger(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER / 2) throw new Error(`not a signed varint: ${value}`);
    this.uint(value >= 0 ? 2 * value : -2 * value - 1);
  }

  /** ASCII text, one byte per character, no length. */
  ascii(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) throw new Error(`not ASCII: ${JSON.stringify(text)}`);
      this.out.push(c);
    }
  }

  bytes(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

/** Reads the table file's primitives in order; every misread names the byte it happened at. */
export class ByteReader {
  private pos = 0;

  constructor(private readonly data: Uint8Array) {}

  /** Bytes read so far. */
  get offset(): number {
    return this.pos;
  }

  fail(why: string): never {
    throw new Error(`table file: ${why} at byte ${this.pos}`);
  }

  uint(): number {
    // Most of the table's numbers fit one byte: that path first, without the loop.
    const first = this.data[this.pos];
    if (first < 0x80) {
      this.pos++;
      return first;
    }
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.data.length) this.fail('unexpected end');
      const b = this.data[this.pos++];
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
      if (scale > Number.MAX_SAFE_INTEGER) this.fail('varint too long');
    }
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  ascii(count: number): string {
    if (this.pos + count > this.data.length) this.fail('unexpected end');
    const text = String.fromCharCode(...this.data.subarray(this.pos, this.pos + count));
    this.pos += count;
    return text;
  }

  /** Bytes not read yet. */
  remaining(): number {
    return this.data.length - this.pos;
  }

  /** Throws unless every byte has been read. */
  end(): void {
    if (this.pos !== this.data.length) this.fail('trailing bytes');
  }
}
