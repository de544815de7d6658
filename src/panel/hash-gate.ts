/**
 * The gate password hashes pass through: **HASHES_AT_ONCE at a time**, the rest wait in line, and
 * beyond HASHES_WAITING in line a sign-in is answered 503 with Retry-After at once rather than queued
 * for ever. libuv's pool has four threads, which the service's file reads, DNS lookups and compression
 * share, and each hash holds one for a few hundred milliseconds and 128 MiB (password-hasher.ts): a
 * flood of sign-ins from many addresses (each within its own throttle) therefore leaves the pool to
 * the rest of the service and memory bounded.
 */
import { LocError } from '../errors.ts';

/** Hashes computed at once: half of libuv's default pool of four. */
export const HASHES_AT_ONCE = 2;
/** Hashes that may wait for one of those; more are refused (503). A few seconds of waiting at most. */
export const HASHES_WAITING = 16;

/** What a gate holds now, and what it has refused since it was made: an operator's view of it. */
export interface GateStats {
  running: number;
  queued: number;
  refused: number;
}

/** Runs work through the gate; `stats` reads its figures. */
export type Gate = (<T>(work: () => Promise<T>) => Promise<T>) & { stats(): GateStats };

/** Runs `work` when fewer than `atOnce` run, after those waiting; refuses when `waiting` already wait. */
export function gate(atOnce: number, waiting: number): Gate {
  let running = 0;
  let refused = 0;
  const line: Array<() => void> = [];
  // A place freed goes to the first in line, if any, without being given back: `running` stays counted.
  const next = (): void => {
    const resume = line.shift();
    if (resume === undefined) running--;
    else resume();
  };
  const through = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= atOnce) {
      if (line.length >= waiting) {
        refused++;
        throw new LocError('service_unavailable', 'Too many sign-ins at once; retry in a few seconds.').retryAfter(5);
      }
      await new Promise<void>((resume) => line.push(resume));
    } else {
      running++;
    }
    try {
      return await work();
    } finally {
      next();
    }
  };
  return Object.assign(through, { stats: () => ({ running, queued: line.length, refused }) });
}
