/**
 * Worker threads, for work that would hold the event loop for milliseconds at a time: a piscina pool
 * on one of the service's worker entries, for tasks that keep coming.
 *
 * An entry is a module of its own, beside the module that uses it, whose default export does one task
 * (src/tiles/tile-worker.ts draws a tile). build.mjs bundles each entry to dist/ under its own name
 * (dist/tile-worker.js), beside the bundle that starts it; so the pool finds the entry beside the
 * running code: the built file when the service runs from dist/, the .ts file itself, loaded with
 * tsx, when it runs from its sources (vitest, `node --import tsx`).
 *
 * Piscina is loaded when the first pool is made, not at start: most runs of `loc` never make one.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Piscina } from 'piscina';

/** This module is running as TypeScript, not from the build. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');

/**
 * How much lower than the thread that answers the API a pool's workers run (nice(2), per thread on
 * Linux; through piscina's optional @napi-rs/nice, a no-op where that is missing): on a busy machine
 * the kernel gives a request the core before a worker's task, which may wait. Threads a worker starts
 * inherit it; libuv's thread pool, which the API uses too, was started by the main thread's own module
 * loading long before.
 */
export const WORKER_NICE_INCREMENT = 10;

export interface WorkerPoolOptions {
  /** Threads kept, started with the pool and replaced when one stops. */
  threads: number;
}

/**
 * The file a worker runs for the entry whose source is `source` (a `.ts` URL made beside the module
 * that uses it), and the loader it needs.
 */
function workerEntry(source: URL): { filename: string; execArgv: string[] } {
  if (FROM_SOURCES) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { filename: fileURLToPath(source), execArgv: ['--import', tsx] };
  }
  return { filename: fileURLToPath(source).replace(/\.ts$/, '.js'), execArgv: [] };
}

/** A pool of `threads` workers running the entry `source` (see workerEntry), WORKER_NICE_INCREMENT lower. `destroy()` ends them. */
export async function workerPool(source: URL, { threads }: WorkerPoolOptions): Promise<Piscina> {
  const { Piscina } = await import('piscina');
  return new Piscina({ ...workerEntry(source), minThreads: threads, maxThreads: threads, niceIncrement: WORKER_NICE_INCREMENT });
}
