/**
 * loc-js/codec — the service's codec in the browser, in Node, in a worker: `loadCodec({ baseUrl })`
 * fetches the table once (714 KB, 384 KB gzipped; immutable under a URL that names its hash), checks
 * its hash and revision, and from then on encodes and decodes with no request, offline.
 *
 * The codec is the service's own (src/code/table-codec.ts) on the same bytes, bundled in by the
 * build: it gives the service's answers, exactly, by construction; `npm test` holds it to the golden
 * vectors in Chromium and in Node and to the server on a random sample.
 */
import { Coverage } from '../../../src/code/coverage.ts';
import { SHIPPED_TABLE, TABLE_PATH } from '../../../src/code/table-release.ts';
import { neighboursWith, type Neighbours } from '../../../src/code/neighbours.ts';
import { decodeIn, encodeIn, type LocatedCell } from '../../../src/code/table-codec.ts';
import { readTableFile } from '../../../src/code/table-file.ts';

export type { LocatedCell as LocCell };
export type { CellBounds } from '../../../src/code/grid.ts';
export type { Neighbours, NeighbourDirection } from '../../../src/code/neighbours.ts';
/** What the codec throws carries one of these in `code`, as the service's answers do. */
export type LocCodecErrorCode = 'validation_error' | 'unsupported_location' | 'invalid_code' | 'code_not_found';

/** Where the table comes from: the service, or bytes the app has (bundled, stored, read from disk). */
export type LoadCodecOptions =
  | {
      /** The service's public base URL, e.g. `'https://loc.example'`; the table is fetched from below it. */
      baseUrl: string;
      /** The fetch to use (default: the global one), e.g. one that goes through a service worker's cache. */
      fetch?: typeof fetch;
    }
  | {
      /** The table file itself: `loc-js/table.bin` as the app's bundler or file system hands it over. */
      table: ArrayBuffer | Uint8Array;
    };

/** The codec of format v1 on a checked table. Encode and decode throw an Error with a `code` (LocCodecErrorCode). */
export interface LocCodec {
  /** The code format (1) and the table's revision within it. */
  readonly format: number;
  readonly revision: number;
  /** The code of the 3 m cell holding (`lat`, `lng`), as `POST /v1/loc/generate` answers for it. */
  encode(lat: number, lng: number): LocatedCell;
  /** The cell of a code in any accepted spelling, as `GET /v1/loc/lookup/{code}` answers for it. */
  decode(code: string): LocatedCell;
  /** The codes of the eight cells around a code's, n to nw clockwise; null where a cell has none (docs/code-format.md §7). */
  neighbours(code: string): Neighbours;
  /** The grid: every band's column count, south to north (docs/code-format.md §2), what the layers draw. */
  readonly grid: { readonly columns: ArrayLike<number> };
}

/** One load per service, shared by every call; a failed one is forgotten so that a later call retries. */
const loads = new Map<string, Promise<LocCodec>>();

/**
 * Loads the codec. Rejects when the table cannot be fetched, or is not the table this version of
 * loc-js was built for (its SHA-256 or revision differ): no codec is better than one with wrong codes.
 */
export function loadCodec(options: LoadCodecOptions): Promise<LocCodec> {
  if ('table' in options) return codecOf(options.table);
  let url: string;
  try {
    url = tableUrl(options.baseUrl);
  } catch (error) {
    return Promise.reject(error);
  }
  let load = loads.get(url);
  if (load === undefined) {
    load = fetchTable(url, options.fetch ?? fetch).then(codecOf);
    loads.set(url, load);
    load.catch(() => loads.get(url) === load && loads.delete(url));
  }
  return load;
}

/** The table's URL below the service's base URL. Throws on a base URL that is not absolute http(s). */
function tableUrl(baseUrl: string): string {
  if (!/^https?:\/\/[^/]/i.test(baseUrl)) throw new TypeError(`loadCodec: baseUrl must be an absolute http(s) URL, received ${JSON.stringify(baseUrl)}.`);
  return baseUrl.replace(/\/+$/, '') + TABLE_PATH;
}

async function fetchTable(url: string, get: typeof fetch): Promise<ArrayBuffer> {
  const response = await get(url);
  if (!response.ok) throw new Error(`loadCodec: ${url} answered ${response.status}.`);
  return response.arrayBuffer();
}

async function codecOf(table: ArrayBuffer | Uint8Array): Promise<LocCodec> {
  const bytes = table instanceof Uint8Array ? table : new Uint8Array(table);
  const hash = await sha256(bytes);
  if (hash !== SHIPPED_TABLE.sha256) {
    throw new Error(`loadCodec: the table's SHA-256 is ${hash}, not revision ${SHIPPED_TABLE.revision}'s ${SHIPPED_TABLE.sha256}.`);
  }
  // Lazy: the hash vouches for the bytes, and only points in mixed blocks need the borders and fills.
  const data = readTableFile(bytes, { lazy: true });
  const coverage = new Coverage(data);
  const encode = (lat: number, lng: number) => encodeIn(coverage, lat, lng);
  const decode = (code: string) => decodeIn(coverage, code);
  return {
    format: data.version,
    revision: data.revision,
    encode,
    decode,
    neighbours: (code) => neighboursWith({ encode, decode, columns: coverage.columns }, code),
    grid: { columns: coverage.columns },
  };
}

async function sha256(bytes: Uint8Array): Promise<string> {
  // Browsers give Web Crypto to secure contexts only: a page on plain http:// other than localhost has none.
  if (globalThis.crypto?.subtle === undefined) {
    throw new Error('loadCodec: checking the table needs Web Crypto (crypto.subtle), which a browser gives only to pages on https:// or localhost.');
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
