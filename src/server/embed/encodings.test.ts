import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EncodedFile, MIN_COMPRESSED_BYTES } from './encodings.ts';

const text = Buffer.from(Array.from({ length: 400 }, (_, i) => `line ${i} of a script that compresses well;\n`).join(''));
const file = (body: Buffer, compress?: boolean): EncodedFile => new EncodedFile({ body, etag: '"abc"', encoding: null }, compress);

async function prepared(body: Buffer): Promise<EncodedFile> {
  const encoded = file(body);
  await encoded.prepare();
  return encoded;
}

describe('encoded files', () => {
  it('prefer Brotli, then gzip, and send the file as it is to a client that accepts neither', async () => {
    const encoded = await prepared(text);
    const br = encoded.choose('gzip, deflate, br, zstd');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body)).toEqual(text);
    expect(br.body.length).toBeLessThan(text.length / 5);
    const gzip = encoded.choose('gzip');
    expect(gzip.encoding).toBe('gzip');
    expect(gunzipSync(gzip.body)).toEqual(text);
    for (const header of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      expect(encoded.choose(header).encoding, String(header)).toBeNull();
    }
  });

  it('follow the client’s q-values over our preference', async () => {
    const encoded = await prepared(text);
    expect(encoded.choose('br;q=0, gzip').encoding).toBe('gzip');
    expect(encoded.choose('br;q=0.5, gzip;q=0.9').encoding).toBe('gzip');
    expect(encoded.choose('*').encoding).toBe('br');
  });

  it('give every representation its own strong ETag', async () => {
    const encoded = await prepared(text);
    expect([encoded.choose('br').etag, encoded.choose('gzip').etag, encoded.choose(undefined).etag]).toEqual(['"abc.br"', '"abc.gzip"', '"abc"']);
  });

  it('never make a request wait: before compression is done the file goes out as it is, and compression starts', async () => {
    const encoded = file(text);
    expect(encoded.choose('br').encoding).toBeNull();
    // The request above started it; preparing again joins the same work.
    await encoded.prepare();
    expect(encoded.choose('br').encoding).toBe('br');
  });

  it('compress each file once, however often it is asked to', async () => {
    const encoded = file(text);
    await Promise.all(Array.from({ length: 20 }, () => encoded.prepare()));
    const first = encoded.choose('br').body;
    await encoded.prepare();
    expect(encoded.choose('br').body).toBe(first);
  });

  it('leave alone small files and files marked not worth it', async () => {
    for (const encoded of [file(text.subarray(0, MIN_COMPRESSED_BYTES - 1)), file(text, false)]) {
      await encoded.prepare();
      expect(encoded.negotiable).toBe(false);
      expect(encoded.choose('br').encoding).toBeNull();
    }
    expect(file(text).negotiable).toBe(true);
  });

  it('send the file as it is when compressing would make it larger', async () => {
    // Random bytes do not compress: either format's framing only adds to them.
    const random = randomBytes(4096);
    const encoded = await prepared(random);
    for (const accept of ['br', 'gzip']) {
      const chosen = encoded.choose(accept);
      expect(chosen.encoding).toBeNull();
      expect(chosen.body).toBe(random);
    }
  });
});
