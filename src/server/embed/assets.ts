/**
 * The embed's static side, as a Fastify plugin: the loader and its declarations, the frame's script,
 * styles and language catalogues, the grid table the frame draws the 3 m grid from, and — in offline tile mode — the
 * tiles. It also decorates the reply with `sendEmbedFrame`, which the session-bound frame route uses
 * to send the frame page with its headers.
 *
 * Compression: each file goes out in Brotli or gzip when the browser accepts it (encodings.ts).
 *
 * Caching: the loader and the form field's script keep fixed URLs that integrators paste into pages, so they are revalidated often
 * (short max-age, ETag); the frame's files — its catalogues too — are requested with the build's
 * content hash (`?v=`) and so are immutable; the grid table and tiles never change within a format version. Only a URL that
 * names the content's hash may be immutable: `/embed/v1/loc-embed.js` is evergreen within v1 (every
 * v1 loader works with every v1 frame), so it is revalidated exactly as its unversioned alias is.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { TABLE_URL, coverage } from '../../code/shipped-table.ts';
import { TABLE_PATH } from '../../code/table-release.ts';
import { BLOCK_SIZE } from '../../code/grid.ts';
import { FORMAT_VERSION } from '../../code/cells.ts';
import { ERROR_CATALOGUE, LocError } from '../../errors.ts';
import { offlineTiles, type OfflineTiles } from '../../tiles/offline.ts';
import type { StyleLayers } from '../../embed/frame-contract.ts';
import { resolveStyles, type TileSettings } from '../../tiles/styles.ts';
import { errorBody } from '../http/error-body.ts';
import { EncodedFile } from './encodings.ts';
import { catalogueFiles, embedDir, type CompressedFile } from './files.ts';
import { frameConfig, frameHeaders, renderFramePage, type FramePageInput } from './frame-page.ts';
import type { GridData } from '../../embed/frame-contract.ts';

export interface EmbedAssetsOptions {
  /** The service's public base URL, e.g. `https://loc.example`: offline tile URLs and the frame's API base. */
  publicUrl: string;
  /** Tile providers; `{ mode: 'offline' }` serves `/tiles/{style}/{z}/{x}/{y}.png` from this service. */
  tiles?: TileSettings;
  /** Offline mode: new tiles drawn per second (tiles/offline.ts). */
  tileRendersPerSecond: number;
  /** The service's clock, which refills that budget. */
  now: () => number;
  /** The directory of the built embed files, with a trailing slash; default the build's (files.ts). */
  filesDir?: string;
}

/** The session facts the frame route passes to `reply.sendEmbedFrame`. */
export type EmbedFrameSession = Pick<FramePageInput, 'sid' | 'origin' | 'expiresAt' | 'secretHash' | 'refusal' | 'testMode' | 'bounds'>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The tile layers of every style, as configured. */
    embedStyles: StyleLayers;
    /** Compresses every embed file in every encoding (started once the server listens). */
    prepareEmbedEncodings(): Promise<void>;
    /** The tiles the service draws itself, in offline tile mode; null otherwise. */
    offlineTiles: OfflineTiles | null;
  }
  interface FastifyReply {
    /** Sends the frame page for this session, with its CSP, referrer policy and no-store. */
    sendEmbedFrame(session: EmbedFrameSession): FastifyReply;
  }
}

interface Asset {
  /** The bytes as built and their compressed forms (encodings.ts). */
  file: EncodedFile;
  type: string;
  /** Cache-Control when the request names the current version (or for unversioned files). */
  cache: string;
  /** Loaded by integrators' pages and other origins: needs CORS. */
  crossOrigin?: boolean;
}

const REVALIDATE = 'public, max-age=300, must-revalidate';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const DAY = 'public, max-age=86400';

/** A file to serve; `path`: where it was read from, beside which the build put its compressed copies. */
function asset(body: Buffer, type: string, cache: string, { crossOrigin = false, compress = true, path }: { crossOrigin?: boolean; compress?: boolean; path?: string } = {}): Asset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { file: new EncodedFile({ body, etag, encoding: null }, compress, path), type, cache, crossOrigin };
}

/** What the embed serves at `/embed/<name>`. */
const BUILT_FILES = ['loc-embed.js', 'loc-embed.d.ts', 'loc-picker.js', 'loc-picker.d.ts', 'frame.js', 'frame.css', 'frame.js.map', 'grid.json'] as const;

/**
 * What it also serves at `/embed/v1/<name>`, the path integrators are given (loadLoc uses it): the
 * same bytes and headers as `/embed/<name>`, which stays for the pages that already name it.
 */
const V1_FILES = ['loc-embed.js', 'loc-embed.d.ts', 'loc-picker.js', 'loc-picker.d.ts'] as const;

/**
 * The built files as served, and the version of the frame's script and styles that its page links;
 * `catalogues`: the frame's catalogues by file name (`fr.json`), served at `/embed/locales/<name>`.
 */
function readBundle(dir: string): { files: Record<(typeof BUILT_FILES)[number], Asset>; catalogues: Map<string, Asset>; version: string; page: string } {
  const read = (name: string) => readFileSync(`${dir}${name}`);
  /** A file the build compressed (precompress.ts), served from its copies. */
  const built = (name: CompressedFile, type: string, cache: string, crossOrigin = false) => asset(read(name), type, cache, { crossOrigin, path: `${dir}${name}` });
  const files = {
    'loc-embed.js': built('loc-embed.js', 'text/javascript; charset=utf-8', REVALIDATE, true),
    'loc-embed.d.ts': built('loc-embed.d.ts', 'application/typescript; charset=utf-8', REVALIDATE, true),
    'loc-picker.js': built('loc-picker.js', 'text/javascript; charset=utf-8', REVALIDATE, true),
    'loc-picker.d.ts': built('loc-picker.d.ts', 'application/typescript; charset=utf-8', REVALIDATE, true),
    'frame.js': built('frame.js', 'text/javascript; charset=utf-8', IMMUTABLE),
    'frame.css': built('frame.css', 'text/css; charset=utf-8', IMMUTABLE),
    // For the browser's developer tools, which ask for it only when open: not worth 0.8 s of
    // Brotli at every start.
    'frame.js.map': asset(read('frame.js.map'), 'application/json; charset=utf-8', REVALIDATE, { compress: false }),
    // To any page too: loc-js/grid's loadGrid reads it for the integrator's own map.
    'grid.json': asset(Buffer.from(JSON.stringify(gridJson())), 'application/json; charset=utf-8', DAY, { crossOrigin: true }),
  } satisfies Record<(typeof BUILT_FILES)[number], Asset>;
  const catalogues = new Map(catalogueFiles(dir).map((path) => [path.slice('locales/'.length), built(path, 'application/json; charset=utf-8', IMMUTABLE)]));
  // One version for all of them: the page links the script and styles, and the script asks for its
  // catalogue with the same `?v=`.
  const hash = createHash('sha256').update(files['frame.js'].file.identity.body).update(files['frame.css'].file.identity.body);
  for (const catalogue of catalogues.values()) hash.update(catalogue.file.identity.body);
  const version = hash.digest('base64url').slice(0, 12);
  return { files, catalogues, version, page: readFileSync(`${dir}frame.html`, 'utf8') };
}

/** The grid table the frame needs to draw the 3 m grid: every band's frozen column count. */
export function gridJson(): GridData {
  return { format: FORMAT_VERSION, rowsPerBand: BLOCK_SIZE, columns: Array.from(coverage().columns) };
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset, cache = asset.cache): FastifyReply {
  const chosen = asset.file.choose(request.headers['accept-encoding']);
  reply.header('content-type', asset.type).header('etag', chosen.etag).header('cache-control', cache).header('x-content-type-options', 'nosniff');
  if (asset.file.negotiable) reply.header('vary', 'accept-encoding');
  if (chosen.encoding !== null) reply.header('content-encoding', chosen.encoding);
  if (asset.crossOrigin) reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
  if (request.headers['if-none-match'] === chosen.etag) return reply.code(304).send();
  return reply.send(chosen.body);
}

/** The catalogue's 404, in the service's error shape, naming what was wrong with the tile address. */
function notFound(reply: FastifyReply, detail: string): FastifyReply {
  return reply.code(404).send(errorBody(new LocError('not_found', `${ERROR_CATALOGUE.not_found.message} ${detail}`)));
}

export const embedAssets = fp<EmbedAssetsOptions>(
  async (app, options) => {
    // Read on first use, not at registration: an app built for API tests needs no browser build, and
    // `loc serve` checks the build is there before it starts (server.ts).
    let built: ReturnType<typeof readBundle> | undefined;
    const bundle = () => (built ??= readBundle(options.filesDir ?? embedDir()));
    app.decorate('prepareEmbedEncodings', () =>
      Promise.all([...Object.values(bundle().files), ...bundle().catalogues.values()].map((file) => file.file.prepare())).then(() => undefined),
    );
    // In the background, once the ready line is out: the first visitors after a start get the files
    // as they are, not a wait, and the start does not wait for the grid's table either.
    app.addHook('onListen', async () => void setImmediate(() => void app.prepareEmbedEncodings()));
    const tileSettings = options.tiles ?? { mode: 'online' };
    const styles = resolveStyles(tileSettings, options.publicUrl);
    app.decorate('embedStyles', styles);

    // The codec's table for browsers (loc-js/codec): its URL names its hash, so it is immutable. Read
    // and compressed on its first request rather than at start: Brotli takes seconds on its 714 KB,
    // which every start would pay for a file most services never send.
    let table: Asset | undefined;
    app.get(TABLE_PATH, { schema: { hide: true } }, async (request, reply) =>
      send(request, reply, (table ??= asset(readFileSync(TABLE_URL), 'application/octet-stream', IMMUTABLE, { crossOrigin: true }))),
    );

    const paths = [...BUILT_FILES.map((name) => [`/embed/${name}`, name] as const), ...V1_FILES.map((name) => [`/embed/v1/${name}`, name] as const)];
    for (const [path, name] of paths) {
      // Files, not API: kept out of the OpenAPI document (docs/embed-internals.md lists them).
      app.get<{ Querystring: { v?: string } }>(path, { schema: { hide: true } }, async (request, reply) => {
        const { files, version } = bundle();
        const file = files[name];
        // A stale `?v=` (a page rendered before a deploy) gets the new file, but must not pin it for a year.
        return send(request, reply, file, file.cache === IMMUTABLE && request.query.v !== version ? REVALIDATE : file.cache);
      });
    }

    // The frame fetches the catalogue of its language from here (iframe-app/i18n.ts), with the page's `?v=`.
    app.get<{ Params: { file: string }; Querystring: { v?: string } }>('/embed/locales/:file', { schema: { hide: true } }, async (request, reply) => {
      const { catalogues, version } = bundle();
      const file = catalogues.get(request.params.file);
      if (!file) return notFound(reply, `There is no catalogue ${JSON.stringify(request.params.file)}.`);
      return send(request, reply, file, request.query.v === version ? file.cache : REVALIDATE);
    });

    const tiles = tileSettings.mode !== 'offline' ? null : offlineTiles({
      rendersPerSecond: options.tileRendersPerSecond,
      now: options.now,
      // Once per spell of refusals, as the rate limit does: what an operator's alerting watches.
      onBudgetSpent: () => app.log.warn({ rendersPerSecond: options.tileRendersPerSecond }, 'offline tile budget spent: new tiles get 503 until it refills'),
      onDrawFailed: (cause) => app.log.error({ err: cause }, 'an offline tile worker failed to draw a tile (503); the worker is replaced'),
    });
    app.decorate('offlineTiles', tiles);
    if (tiles !== null) {
      app.addHook('onClose', () => tiles.close());
      app.get<{ Params: { style: string; z: string; x: string; y: string } }>('/tiles/:style/:z/:x/:y.png', { schema: { hide: true } }, async (request, reply) => {
        const { style, z, x, y } = request.params;
        let body: Buffer;
        try {
          body = await tiles.get(style, Number(z), Number(x), Number(y));
        } catch (error) {
          if (error instanceof RangeError) return notFound(reply, error.message);
          throw error;
        }
        return reply
          .header('content-type', 'image/png')
          .header('cache-control', DAY)
          .header('cross-origin-resource-policy', 'cross-origin')
          // A WebGL map (MapLibre) reads tiles with CORS: an integrator's own map may show them.
          .header('access-control-allow-origin', '*')
          .header('x-content-type-options', 'nosniff')
          .send(body);
      });
    }

    app.decorateReply('sendEmbedFrame', function sendEmbedFrame(this: FastifyReply, session: EmbedFrameSession) {
      const input: FramePageInput = { ...session, apiBase: options.publicUrl, styles };
      const { version, page } = bundle();
      return this.headers(frameHeaders(frameConfig(input))).send(renderFramePage(input, version, page));
    });
  },
  { name: 'loc-embed-assets', fastify: '5.x' },
);

export default embedAssets;
