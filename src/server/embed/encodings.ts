/**
 * Content encodings: of the embed's static files, and of an answer too large to send as it is (the
 * grid's, up to 3 MB of JSON). The frame's script is 165 KB as built and 45 KB in
 * Brotli: a visitor on a phone should download the second. The build writes each built file's
 * compressed copies beside it (`frame.js.br`, `frame.js.gz`: precompress.ts), so a process only reads
 * them, and checks them against the file: about 0.5 s of CPU saved at every start of every process
 * (Brotli at its best quality takes 0.2 s on the frame script alone). A file without its copies, or
 * whose copy holds other bytes (a build half replaced), is compressed once per process instead. Both
 * happen in libuv's thread pool (the event loop keeps serving meanwhile), once the server listens, so
 * `loc serve` starts as fast as before, and an app that never listens (tests) does it only when asked.
 *
 * Each encoding is a representation of its own (RFC 9110 §8.8.3): its own strong ETag, and
 * `Vary: Accept-Encoding` on every answer, so a cache never hands gzip to a client that did not ask.
 */
import negotiate from '@fastify/accept-negotiator';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants, gunzip, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Preference when a client accepts both equally: Brotli is 10–15 % smaller on our files. */
export const PREFERENCE: Encoding[] = ['br', 'gzip'];

/** The suffix of each encoding's copy of a built file, beside it. */
export const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** Below this, compression saves less than a packet; such files are sent as they are. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * How hard to compress: `best` for a file compressed once and sent to every visitor (Brotli at its
 * best quality takes 0.2 s on the frame script), `quick` for an answer one request waits for (Brotli
 * at quality 5: a 3.2 MB grid answer in 137 KB and 16 ms, where the best quality takes seconds).
 */
export type Effort = 'best' | 'quick';

const LEVELS: Record<Effort, Record<Encoding, number>> = {
  best: { br: constants.BROTLI_MAX_QUALITY, gzip: constants.Z_BEST_COMPRESSION },
  quick: { br: 5, gzip: constants.Z_DEFAULT_COMPRESSION },
};

/** `body` in `encoding`, compressed in the thread pool. */
export function compress(body: Buffer, encoding: Encoding, effort: Effort): Promise<Buffer> {
  const level = LEVELS[effort][encoding];
  if (encoding === 'gzip') return promisify(gzip)(body, { level });
  const params = { [constants.BROTLI_PARAM_QUALITY]: level, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length };
  return promisify(brotliCompress)(body, { params });
}

const decompressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = { br: promisify(brotliDecompress), gzip: promisify(gunzip) };

/** The build's copy of `body` in `encoding`, read from beside the file at `path`; null when it is missing or holds other bytes. */
async function builtCopy(path: string, encoding: Encoding, body: Buffer): Promise<Buffer | null> {
  try {
    const copy = await readFile(`${path}${SUFFIX[encoding]}`);
    return (await decompressors[encoding](copy)).equals(body) ? copy : null;
  } catch {
    return null;
  }
}

/** One representation of a file: its bytes, its ETag, and the Content-Encoding it is sent with. */
export interface Representation {
  body: Buffer;
  etag: string;
  encoding: Encoding | null;
}

/** A file and its compressed representations, made once in the background and kept. */
export class EncodedFile {
  private readonly ready = new Map<Encoding, Representation>();
  private preparing: Promise<void> | undefined;

  /**
   * `compress: false` for a file not worth the thread pool's time (a source map, for developer tools);
   * `path`: where the file was read from, beside which the build may have put its compressed copies.
   */
  constructor(readonly identity: Representation, private readonly compress = true, private readonly path?: string) {}

  /** Whether answers depend on Accept-Encoding (and so must say `Vary: Accept-Encoding`). */
  get negotiable(): boolean {
    return this.compress && this.identity.body.length >= MIN_COMPRESSED_BYTES;
  }

  /**
   * Reads or makes the file's copy in every encoding, once, in the thread pool; never rejects (zlib
   * failing on a buffer in memory is not a visitor's problem: the file then goes out as it is).
   */
  prepare(): Promise<void> {
    if (!this.negotiable) return Promise.resolve();
    this.preparing ??= Promise.all(PREFERENCE.map(async (encoding) => {
      const { body, etag } = this.identity;
      const built = this.path === undefined ? null : await builtCopy(this.path, encoding, body);
      const compressed = built ?? (await compress(body, encoding, 'best').catch(() => body));
      // The encoding's name inside the quotes: a strong ETag names one representation.
      if (compressed.length < body.length) this.ready.set(encoding, { body: compressed, etag: `${etag.slice(0, -1)}.${encoding}"`, encoding });
    })).then(() => undefined);
    return this.preparing;
  }

  /**
   * The representation to send for an `Accept-Encoding` header: the preferred one it accepts among
   * those ready. Never waits: a request that comes before compression is done gets the file as it
   * is at once (a first page load should not queue behind Brotli on the thread pool), and starts the
   * compression.
   */
  choose(acceptEncoding: string | undefined): Representation {
    if (!this.negotiable || acceptEncoding === undefined) return this.identity;
    if (this.preparing === undefined) void this.prepare();
    const encoding = negotiate(acceptEncoding, PREFERENCE.filter((candidate) => this.ready.has(candidate)));
    return encoding === null ? this.identity : this.ready.get(encoding as Encoding)!;
  }
}

/**
 * A large answer made for one request, in the encoding the client prefers among those it accepts,
 * compressed `quick`ly. @fastify/compress would do this too, but it loads mime-db with it: about
 * 18 ms of every process's start (5 % of `loc serve`'s, which has a budget), for one route.
 */
export async function encodedAnswer(body: Buffer, acceptEncoding: string | undefined): Promise<{ body: Buffer; encoding: Encoding | null }> {
  const encoding = acceptEncoding === undefined || body.length < MIN_COMPRESSED_BYTES ? null : (negotiate(acceptEncoding, PREFERENCE) as Encoding | null);
  if (encoding === null) return { body, encoding };
  return { body: await compress(body, encoding, 'quick'), encoding };
}
