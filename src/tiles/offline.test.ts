/**
 * The tile service with its real worker threads: the cache, the budget and the bound on waiting tiles
 * in front of them, and closing. A worker is held in the middle of a drawing through the inspector
 * (test/support/worker-inspector.ts): that is how a test knows the workers are busy, without timing anything.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { LocError } from '../errors.ts';
import { WORKER_NICE_INCREMENT } from '../workers/pool.ts';
import { watchWorkers, type WorkerWatch } from '../../test/support/worker-inspector.ts';
import { PENDING_PER_WORKER, RENDER_BURST_SECONDS, TILE_WORKERS, offlineTiles, type OfflineTileOptions, type OfflineTiles } from './offline.ts';

/** Where the workers stop: the first statement of drawing a tile. */
const DRAWING = ['renderTile', /\/tiles\/draw\.ts$/] as const;

const opened: OfflineTiles[] = [];
let watch: WorkerWatch | undefined;
afterEach(async () => {
  await watch?.close();
  watch = undefined;
  await Promise.all(opened.splice(0).map((tiles) => tiles.close()));
});

function tiles(options: Partial<OfflineTileOptions> = {}): OfflineTiles {
  const service = offlineTiles({ rendersPerSecond: 20, now: Date.now, ...options });
  opened.push(service);
  return service;
}

/** The error a promise rejects with; fails if it resolves. */
async function refusal(promise: Promise<unknown>): Promise<LocError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome, 'refused').toBeInstanceOf(LocError);
  return outcome as LocError;
}

describe('offline tiles', () => {
  it('are drawn by a worker as 256 px PNG images', async () => {
    const png = PNG.sync.read(await tiles().get('streets', 0, 0, 0));
    expect([png.width, png.height]).toEqual([256, 256]);
  });

  it('are drawn in threads that yield the processor to the API: nice +10 (Linux)', async () => {
    /** The nice value in a /proc stat line (its 19th field). */
    const nice = (path: string) => Number(readFileSync(path, 'utf8').split(') ')[1].split(' ')[16]);
    const main = nice('/proc/self/stat');
    const lowered = () => readdirSync('/proc/self/task').filter((tid) => nice(`/proc/self/task/${tid}/stat`) === main + WORKER_NICE_INCREMENT).length;
    const before = lowered();
    await tiles().get('streets', 1, 1, 1);
    // Each worker, and any thread it starts (from the sources, tsx's loader).
    expect(lowered()).toBeGreaterThanOrEqual(before + TILE_WORKERS);
    expect(nice('/proc/self/stat')).toBe(main);
  });

  it('serve repeats from the cache', async () => {
    const service = tiles({ cacheSize: 64 });
    const first = await service.get('biking', 11, 1036, 704);
    await service.get('biking', 11, 1037, 704);
    expect(await service.get('biking', 11, 1036, 704)).toBe(first);
  });

  it('evict the least recently used tile when the cache is full', async () => {
    const service = tiles({ cacheSize: 2 });
    const a = await service.get('streets', 1, 0, 0);
    const b = await service.get('streets', 1, 1, 0);
    await service.get('streets', 1, 0, 0);
    await service.get('streets', 1, 1, 1);
    expect(await service.get('streets', 1, 0, 0)).toBe(a);
    const again = await service.get('streets', 1, 1, 0);
    expect(again).not.toBe(b);
    expect(again.equals(b)).toBe(true);
  });

  it('draw ten seconds of their budget at once, then refuse new tiles until it refills, still serving the cached ones', async () => {
    let time = 0;
    let spent = 0;
    const service = tiles({ rendersPerSecond: 1, now: () => time, onBudgetSpent: () => spent++ });
    const drawn = await Promise.all(Array.from({ length: RENDER_BURST_SECONDS }, (_, i) => service.get('streets', 4, i, 5)));
    const refused = await refusal(service.get('streets', 4, 10, 5));
    expect(refused).toMatchObject({ code: 'service_unavailable', status: 503, retryAfterSeconds: 1 });
    expect(refused.message).toBe(
      'The service draws at most 1 new map tiles a second and has drawn its share; retry in 1 s. Tiles it drew recently are still served.',
    );
    expect(await service.get('streets', 4, 0, 5)).toBe(drawn[0]);
    // A tile that cannot exist is told so, and costs nothing.
    await expect(service.get('streets', 4, 16, 5)).rejects.toThrow(RangeError);
    await refusal(service.get('streets', 4, 11, 5));
    expect(spent).toBe(1);

    time += 500;
    expect(await refusal(service.get('streets', 4, 10, 5))).toMatchObject({ retryAfterSeconds: 1 });
    time += 500;
    expect(await service.get('streets', 4, 10, 5)).toBeInstanceOf(Buffer);
    await refusal(service.get('streets', 4, 11, 5));
    expect(spent).toBe(2);
    // A clock moved back refills nothing, and coming forward again refills only the time past the last refill.
    time -= 60_000;
    await refusal(service.get('streets', 4, 11, 5));
    time += 60_000;
    await refusal(service.get('streets', 4, 11, 5));
    time += 1000;
    expect(await service.get('streets', 4, 11, 5)).toBeInstanceOf(Buffer);
  });

  it('refill to ten seconds of the budget at most', async () => {
    let time = 0;
    const service = tiles({ rendersPerSecond: 2, now: () => time });
    time += 3_600_000;
    await Promise.all(Array.from({ length: 2 * RENDER_BURST_SECONDS }, (_, i) => service.get('traffic', 5, i, 11)));
    expect(await refusal(service.get('traffic', 5, 20, 11))).toMatchObject({ code: 'service_unavailable', retryAfterSeconds: 1 });
  });

  it('draw a tile once, and take one drawing from the budget, however many ask for it at the same time', async () => {
    const service = tiles({ rendersPerSecond: 1, now: () => 0 });
    const asked = Array.from({ length: RENDER_BURST_SECONDS }, (_, i) => [service.get('satellite', 5, i, 12), service.get('satellite', 5, i, 12)]);
    for (const [first, second] of asked) expect(await second).toBe(await first);
    await refusal(service.get('satellite', 5, 10, 12));
  });
});

describe('offline tiles while the workers are busy', () => {
  it('keep at most PENDING_PER_WORKER tiles a worker waiting to be drawn; beyond, 503 with Retry-After', async () => {
    watch = await watchWorkers();
    const service = tiles({ rendersPerSecond: TILE_WORKERS * PENDING_PER_WORKER });
    await service.get('streets', 0, 0, 0);
    await watch.breakAt(...DRAWING);
    const pending = TILE_WORKERS * PENDING_PER_WORKER;
    /** The i-th of the tiles of zoom 5, row by row. */
    const tile = (i: number) => service.get('streets', 5, i % 32, Math.floor(i / 32));
    const waiting = Array.from({ length: pending }, (_, i) => tile(i));
    await watch.stopped();
    const busy = await refusal(tile(pending));
    expect(busy).toMatchObject({ code: 'service_unavailable', retryAfterSeconds: 1 });
    expect(busy.message).toBe(`The service has ${pending} new map tiles waiting to be drawn; retry in 1 s. Tiles it drew recently are still served.`);
    // A tile already waiting is not a new one: it waits with the others.
    const again = tile(0);
    await watch.release();
    expect(await again).toBe(await waiting[0]);
    await Promise.all(waiting);
    expect(await tile(pending)).toBeInstanceOf(Buffer);
  });

  it('refuse the tiles still being drawn when closed, and end every worker', async () => {
    watch = await watchWorkers();
    const service = tiles();
    await service.get('streets', 0, 0, 0);
    await watch.breakAt(...DRAWING);
    const drawing = service.get('streets', 2, 1, 1);
    await watch.stopped();
    const closing = service.close();
    expect(await refusal(drawing)).toMatchObject({ code: 'service_unavailable', message: 'The service is shutting down; retry the request.' });
    // A stopped thread ends once it runs again.
    await watch.release();
    await closing;
    await expect.poll(() => watch!.running()).toEqual([]);
    expect(await refusal(service.get('streets', 2, 2, 1))).toMatchObject({ code: 'service_unavailable' });
  });
});
