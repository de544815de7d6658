/**
 * Content encodings of the embed's static files. The frame's script is 165 KB as built and 45 KB in
 * Brotli: a visitor on a phone should download the second. Each file is compressed once per process,
 * on the first request that accepts the encoding, in libuv's thread pool (Brotli at its best quality
 * takes 0.2 s on the frame script; the event loop keeps serving meanwhile) — not at start, so
 * `loc serve` starts as fast as before and a process that never serves the frame never pays.
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

/** A file and its compressed representations, made on demand and kept. */
export class EncodedFile {
  private readonly encoded = new Map<Encoding, Promise<Representation>>();

  constructor(readonly identity: Representation) {}

  /** Whether answers depend on Accept-Encoding (and so must say `Vary: Accept-Encoding`). */
  get negotiable(): boolean {
    return this.identity.body.length >= MIN_COMPRESSED_BYTES;
  }

  /** The representation to send for an `Accept-Encoding` header: the preferred one it accepts. */
  async choose(acceptEncoding: string | undefined): Promise<Representation> {
    if (!this.negotiable || acceptEncoding === undefined) return this.identity;
    const encoding = negotiate(acceptEncoding, PREFERENCE) as Encoding | null;
    return encoding === null ? this.identity : this.representation(encoding);
  }

  private representation(encoding: Encoding): Promise<Representation> {
    let pending = this.encoded.get(encoding);
    if (pending === undefined) {
      const { body, etag } = this.identity;
      pending = compressors[encoding](body).then(
        // The encoding's name inside the quotes: a strong ETag names one representation.
        (compressed) => (compressed.length < body.length ? { body: compressed, etag: `${etag.slice(0, -1)}.${encoding}"`, encoding } : this.identity),
        // zlib failing on a buffer in memory is not the visitor's problem: send the file as it is.
        () => this.identity,
      );
      this.encoded.set(encoding, pending);
    }
    return pending;
  }
}
