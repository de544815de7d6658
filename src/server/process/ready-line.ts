/**
 * The line that says a started server is ready, for programs rather than people: the banner's last,
 * written whatever the log level, in the shape of the log lines that follow it. A supervisor, a test or
 * a script waits for it instead of reading the banner: the address to call, the public URL, with
 * `--seed-dev` the development key's file, for whatever creates sessions with that key, and with
 * LOC_METRICS_PORT where the metrics are scraped.
 */
import { hostname } from 'node:os';

/** The line's `msg`. */
export const READY_MESSAGE = 'listening';

export interface ReadyFields {
  devKeyFile?: string;
  /** In a cluster, the primary's number (cluster.ts), which writes the line once for all its workers. */
  worker?: number;
  /** The metrics listener's URL (metrics/listener.ts). */
  metricsUrl?: string;
}

export function readyLine(url: string, publicUrl: string, { devKeyFile, worker, metricsUrl }: ReadyFields = {}): string {
  return JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, hostname: hostname(), worker, msg: READY_MESSAGE, url, publicUrl, devKeyFile, metricsUrl });
}
