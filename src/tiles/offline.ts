/**
 * Offline tiles as the service serves them. Drawing one costs 5–15 ms (draw.ts), so it happens in
 * worker threads (tile-worker.ts): the thread that answers the API only checks the address, hands the
 * tile over and sends the bytes back, and a flood of new tiles leaves the API's latency as it was.
 *
 * In front of the workers, in this thread: an LRU cache (a map view asks for the same dozen tiles
 * again and again); one drawing per tile, however many requests ask for it at once; a token bucket on
 * drawing (the route is public: anyone may ask for tiles nobody asked for before); and a bound on the
 * tiles waiting for a worker. Whatever would pass a bound is refused with 503 `service_unavailable`
 * and `Retry-After`, and so is a tile its worker failed to draw; the worker is replaced.
 */
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { LocError } from '../errors.ts';
import { workerPool } from '../workers/pool.ts';
import { checkTile } from './tile-address.ts';
import type { TileTask } from './tile-worker.ts';

/** How many seconds of the sustained rate the service may draw at once (a cold start, a new view). */
export const RENDER_BURST_SECONDS = 10;

/**
 * Worker threads that draw: one core's worth is left to the API. Two at most: the default budget
 * needs a fifth of one, a second one halves a burst's wait, and each holds its own copy of the land
 * outlines (about 80 MB).
 */
export const TILE_WORKERS = Math.min(2, Math.max(1, availableParallelism() - 1));

/** Tiles handed to the workers and not yet drawn, per worker, at most: about a second of drawing. */
export const PENDING_PER_WORKER = 100;

/**
 * A tile not drawn this long after it was handed over is given up (its worker, if it was drawing it,
 * is stopped and replaced): no request waits on a worker that hangs or could not start.
 */
export const DRAW_DEADLINE_MS = 10_000;

export interface OfflineTileOptions {
  /** New tiles drawn per second, sustained (LOC_TILE_RENDERS_PER_SECOND). */
  rendersPerSecond: number;
  /** The service's clock, which refills the budget. */
  now: () => number;
  /** Called when the budget runs out after having had room: what an operator watches. */
  onBudgetSpent?: () => void;
  /** Called with the cause when a worker failed to draw a tile (it stopped, or overran DRAW_DEADLINE_MS). */
  onDrawFailed?: (cause: unknown) => void;
  /** Tiles kept, least recently used dropped first. */
  cacheSize?: number;
}

/** What the tile service has done since it started, and what waits now: an operator's view of it. */
export interface TileStats {
  /** Tiles drawn by the workers. */
  rendered: number;
  /** Tiles handed to the workers and not yet drawn. */
  queued: number;
  /** New tiles refused: too many waiting, or over the render rate. */
  refused: number;
}

export interface OfflineTiles {
  /**
   * The PNG of tile (z, x, y) of `style`. Rejects with a RangeError for an address that does not exist,
   * with 503 `service_unavailable` (LocError, with the seconds to wait) for a tile it may not draw now.
   */
  get(style: string, z: number, x: number, y: number): Promise<Buffer>;
  stats(): TileStats;
  /** Ends the workers; tiles still waiting for one are refused. */
  close(): Promise<void>;
}

const unavailable = (message: string, seconds: number): LocError => new LocError('service_unavailable', message).retryAfter(seconds);
const SHUTTING_DOWN = 'The service is shutting down; retry the request.';

/**
 * The token bucket of new tiles: RENDER_BURST_SECONDS of `rendersPerSecond` at once, refilled on
 * `now`'s clock. Takes one drawing from it: 0, or the seconds until there is one.
 */
function renderBudget(rendersPerSecond: number, now: () => number, onBudgetSpent: (() => void) | undefined): () => number {
  const burst = rendersPerSecond * RENDER_BURST_SECONDS;
  let tokens = burst;
  let filledAt = now();
  let spent = false;
  return (): number => {
    const time = now();
    // A clock moved back (tests move theirs, NTP may) refills nothing until it has passed the last
    // refill again, rather than draining the bucket or refilling that stretch twice.
    tokens = Math.min(burst, tokens + (Math.max(0, time - filledAt) / 1000) * rendersPerSecond);
    filledAt = Math.max(filledAt, time);
    if (tokens >= 1) {
      tokens -= 1;
      spent = false;
      return 0;
    }
    if (!spent) onBudgetSpent?.();
    spent = true;
    return (1 - tokens) / rendersPerSecond;
  };
}

/** The tile service: cache, budget and bounds in this thread, drawing in TILE_WORKERS worker threads started on first use. */
export function offlineTiles(options: OfflineTileOptions): OfflineTiles {
  const { rendersPerSecond, now, onBudgetSpent, onDrawFailed, cacheSize = 512 } = options;
  const cache = new Map<string, Buffer>();
  /** The tiles handed to the workers, by address: a second request for one waits for the same drawing. */
  const drawing = new Map<string, Promise<Buffer>>();
  const maxPending = TILE_WORKERS * PENDING_PER_WORKER;
  let pool: Promise<Piscina> | undefined;
  let closed = false;
  let rendered = 0;
  let refused = 0;

  const take = renderBudget(rendersPerSecond, now, onBudgetSpent);

  const draw = async (key: string, task: TileTask): Promise<Buffer> => {
    try {
      pool ??= workerPool(new URL('./tile-worker.ts', import.meta.url), { threads: TILE_WORKERS });
      const png: Uint8Array = await (await pool).run(task, { signal: AbortSignal.timeout(DRAW_DEADLINE_MS) });
      const tile = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
      rendered++;
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
      cache.set(key, tile);
      return tile;
    } catch (cause) {
      if (closed) throw unavailable(SHUTTING_DOWN, 1);
      onDrawFailed?.(cause);
      throw unavailable('The map tile could not be drawn this time; retry in 1 s.', 1);
    } finally {
      drawing.delete(key);
    }
  };

  return {
    async get(style, z, x, y) {
      const key = `${style}/${z}/${x}/${y}`;
      const cached = cache.get(key);
      if (cached) {
        cache.delete(key);
        cache.set(key, cached);
        return cached;
      }
      const pending = drawing.get(key);
      if (pending) return pending;
      checkTile(style, z, x, y); // a tile that cannot exist costs nothing from the budget
      if (closed) throw unavailable(SHUTTING_DOWN, 1);
      if (drawing.size >= maxPending) {
        refused++;
        throw unavailable(`The service has ${drawing.size} new map tiles waiting to be drawn; retry in 1 s. Tiles it drew recently are still served.`, 1);
      }
      const wait = take();
      if (wait > 0) {
        refused++;
        throw unavailable(
          `The service draws at most ${rendersPerSecond} new map tiles a second and has drawn its share; retry in ${Math.ceil(wait)} s. Tiles it drew recently are still served.`,
          wait,
        );
      }
      const tile = draw(key, { style, z, x, y });
      drawing.set(key, tile);
      return tile;
    },
    stats: () => ({ rendered, queued: drawing.size, refused }),
    async close() {
      closed = true;
      if (pool) await (await pool).destroy();
    },
  };
}
