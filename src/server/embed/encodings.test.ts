import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EncodedFile, MIN_COMPRESSED_BYTES, encodedAnswer } from './encodings.ts';

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

  it('send the build’s copies when they hold the file, and compress it themselves when a copy is missing or holds other bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loc-encodings-'));
    try {
      // Copies the process cannot have made itself: Brotli at quality 1, gzip at level 1.
      const quick = brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
      writeFileSync(join(dir, 'built.js.br'), quick);
      writeFileSync(join(dir, 'built.js.gz'), gzipSync(text, { level: 1 }));
      const fromBuild = new EncodedFile({ body: text, etag: '"abc"', encoding: null }, true, join(dir, 'built.js'));
      await fromBuild.prepare();
      expect(fromBuild.choose('br').body).toEqual(quick);
      expect(fromBuild.choose('gzip').body).toEqual(gzipSync(text, { level: 1 }));

      // An older build's copy, and no gzip copy at all: both made here, of the file as it is now.
      writeFileSync(join(dir, 'stale.js.br'), brotliCompressSync(Buffer.from('the file before')));
      const stale = new EncodedFile({ body: text, etag: '"abc"', encoding: null }, true, join(dir, 'stale.js'));
      await stale.prepare();
      expect(brotliDecompressSync(stale.choose('br').body)).toEqual(text);
      expect(gunzipSync(stale.choose('gzip').body)).toEqual(text);
      expect(stale.choose('br').body.length).toBeLessThan(quick.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compress an answer made for one request in the encoding the client prefers, and leave a small one or one it takes no encoding for as it is', async () => {
    const br = await encodedAnswer(text, 'gzip, deflate, br');
    expect([br.encoding, brotliDecompressSync(br.body)]).toEqual(['br', text]);
    const gzip = await encodedAnswer(text, 'br;q=0.5, gzip');
    expect([gzip.encoding, gunzipSync(gzip.body)]).toEqual(['gzip', text]);
    for (const [body, accepted] of [[text, undefined], [text, 'identity'], [text.subarray(0, MIN_COMPRESSED_BYTES - 1), 'br']] as const) {
      expect(await encodedAnswer(body, accepted), String(accepted)).toEqual({ body, encoding: null });
    }
  });
});
