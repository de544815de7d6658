import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EncodedFile, MIN_COMPRESSED_BYTES } from './encodings.ts';

const text = Buffer.from(Array.from({ length: 400 }, (_, i) => `line ${i} of a script that compresses well;\n`).join(''));
const file = (body: Buffer): EncodedFile => new EncodedFile({ body, etag: '"abc"', encoding: null });

describe('encoded files', () => {
  it('prefer Brotli, then gzip, and send the file as it is to a client that accepts neither', async () => {
    const encoded = file(text);
    const br = await encoded.choose('gzip, deflate, br, zstd');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body)).toEqual(text);
    expect(br.body.length).toBeLessThan(text.length / 5);
    const gzip = await encoded.choose('gzip');
    expect(gzip.encoding).toBe('gzip');
    expect(gunzipSync(gzip.body)).toEqual(text);
    for (const header of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      expect((await encoded.choose(header)).encoding, String(header)).toBeNull();
    }
  });

  it('follow the client’s q-values over our preference', async () => {
    expect((await file(text).choose('br;q=0, gzip')).encoding).toBe('gzip');
    expect((await file(text).choose('br;q=0.5, gzip;q=0.9')).encoding).toBe('gzip');
    expect((await file(text).choose('*')).encoding).toBe('br');
  });

  it('give every representation its own strong ETag', async () => {
    const encoded = file(text);
    const etags = [(await encoded.choose('br')).etag, (await encoded.choose('gzip')).etag, (await encoded.choose(undefined)).etag];
    expect(etags).toEqual(['"abc.br"', '"abc.gzip"', '"abc"']);
  });

  it('compress each file once, however many requests ask at the same time', async () => {
    const encoded = file(text);
    const answers = await Promise.all(Array.from({ length: 20 }, () => encoded.choose('br')));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
  });

  it('leave small files alone: they are not negotiable', async () => {
    const small = file(text.subarray(0, MIN_COMPRESSED_BYTES - 1));
    expect(small.negotiable).toBe(false);
    expect((await small.choose('br')).encoding).toBeNull();
    expect(file(text).negotiable).toBe(true);
  });

  it('send the file as it is when compressing would make it larger', async () => {
    // Random bytes do not compress: either format's framing only adds to them.
    const random = randomBytes(4096);
    for (const accept of ['br', 'gzip']) {
      const chosen = await file(random).choose(accept);
      expect(chosen.encoding).toBeNull();
      expect(chosen.body).toBe(random);
    }
  });
});
