/**
 * Content encodings of the embed's static files. The frame's script is 165 KB as built and 45 KB in
 * Brotli: a visitor on a phone should download the second. Each file is compressed once per process,
 * in libuv's thread pool (Brotli at its best quality takes 0.2 s on the frame script; the event loop
 * keeps serving meanwhile): the server starts it once listening, so `loc serve` starts as fast as
 * before, and an app that never listens (tests) compresses only when asked.
 *
 * Each encoding is a representation of its own (RFC 9110 §8.8.3): its own strong ETag, and
 * `Vary: Accept-Encoding` on every answer, so a cache never hands gzip to a client that did not ask.
 */
import negotiate from '@fastify/accept-negotiator';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Preference when a client accepts both equally: Brotli is 10–15 % smaller on our files. */
const PREFERENCE: Encoding[] = ['br', 'gzip'];

/** Below this, compression saves less than a packet; such files are sent as they are. */
export const MIN_COMPRESSED_BYTES = 1024;

const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => promisify(brotliCompress)(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  }),
  gzip: (body) => promisify(gzip)(body, { level: constants.Z_BEST_COMPRESSION }),
};

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

  /** `compress: false` for a file not worth the thread pool's time (a source map, for developer tools). */
  constructor(readonly identity: Representation, private readonly compress = true) {}

  /** Whether answers depend on Accept-Encoding (and so must say `Vary: Accept-Encoding`). */
  get negotiable(): boolean {
    return this.compress && this.identity.body.length >= MIN_COMPRESSED_BYTES;
  }

  /**
   * Compresses the file in every encoding, once, in the thread pool; never rejects (zlib failing on
   * a buffer in memory is not a visitor's problem: the file then goes out as it is).
   */
  prepare(): Promise<void> {
    if (!this.negotiable) return Promise.resolve();
    this.preparing ??= Promise.all(PREFERENCE.map(async (encoding) => {
      const { body, etag } = this.identity;
      const compressed = await compressors[encoding](body).catch(() => body);
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
