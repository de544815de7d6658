/**
 * The log destination of `loc serve`: where its log lines and banner go (stdout, fd 1), written so
 * that the destination can never stop the service. Writes are asynchronous (sonic-boom), so a slow
 * reader or a stalled disk never blocks the event loop; lines not yet written hold a bounded amount
 * of memory; a destination that fails (a full disk, a file at its size limit, a reader gone) costs
 * lines, never the process. Lines are dropped and counted, and once a write succeeds again one line
 * says how many were dropped and since when.
 *
 * How sonic-boom (4.x, async mode) behaves, which this builds on: EAGAIN (a non-blocking pipe that is
 * full) is retried every 100 ms for as long as `retryEAGAIN` says so; any other error (ENOSPC, EFBIG,
 * EPIPE, …) is an 'error' event — an exception, had nobody listened — after which the chunk that
 * failed is kept and written again at the next `write`, from the byte it stopped at. On a blocking
 * descriptor a write that cannot go on waits in libuv's thread pool: off the event loop, but the
 * process cannot end while it waits (hence `stdoutDescriptor`).
 */
import { constants, fstatSync, openSync } from 'node:fs';
import { hostname } from 'node:os';
// CommonJS: the class is a property of what the module exports.
import sonicBoom from 'sonic-boom';
import type { LogStream } from '../app.ts';

export interface LogDestinationOptions {
  /** File descriptor written to; default stdout, as `stdoutDescriptor` opens it. */
  fd?: number;
  /** Bytes accepted but not yet written beyond which lines are dropped; default 1 MiB. */
  maxPendingBytes?: number;
  /** After a failed write, how long until it is tried again; default 1 s. */
  retryMs?: number;
  /** A cluster's worker (1..N) or primary (0) writing: the report of dropped lines says which (cluster.ts). */
  worker?: number;
}

const DEFAULTS: Required<Omit<LogDestinationOptions, 'fd' | 'worker'>> = { maxPendingBytes: 1024 * 1024, retryMs: 1000 };

/** How long `close` waits, by default, for lines not yet written. */
const CLOSE_TIMEOUT_MS = 1000;

/** The line that reports dropped lines: its `msg`, for those who alert on it. */
export const DROPPED_MESSAGE = 'log lines dropped';

/** pino's level number for `warn`: the report reads like any other warning of the log. */
const WARN_LEVEL = 40;

export interface LogDestination extends LogStream {
  /**
   * Resolves once every line accepted is written, or a write fails, or after `timeoutMs`, whichever
   * comes first; from then on nothing more is written or tried again. Never rejects.
   */
  close(timeoutMs?: number): Promise<void>;
}

export function openLogDestination(options: LogDestinationOptions = {}): LogDestination {
  const { fd = stdoutDescriptor(), maxPendingBytes, retryMs, worker } = { ...DEFAULTS, ...options };
  let closed = false;
  // Bytes handed to sonic-boom and not yet written. sonic-boom never discards what it accepted, so
  // this is exact; it is counted here because sonic-boom's own bound (`maxLength`) would also refuse
  // the report of what it dropped.
  let pending = 0;
  /** Set from a failed write until the next successful one; while set, lines are dropped at once. */
  let failure: string | undefined;
  const drops = droppedLines(worker);
  let retry: NodeJS.Timeout | undefined;
  /** While closing: ends the close (every line written, or a write failed). */
  let settle: (() => void) | undefined;

  const stream = new sonicBoom.SonicBoom({ fd, retryEAGAIN: () => !closed });

  stream.on('error', (error: NodeJS.ErrnoException) => {
    failure = error.code ?? error.message;
    drops.noteFailure(failure);
    // Closing: that was the last try.
    if (settle !== undefined) return settle();
    if (closed || retry !== undefined) return;
    // Not sooner: a failing disk or a gone reader is not mended in microseconds, and every retry is
    // a system call. Unref'd: a retry alone never keeps the process alive.
    retry = setTimeout(() => {
      retry = undefined;
      // An empty write adds nothing and starts sonic-boom's write of the chunk that failed.
      if (!closed) stream.write('');
    }, retryMs).unref();
  });

  stream.on('write', (bytes: number) => {
    pending -= bytes;
    failure = undefined;
    // The report may exceed the bound by its own length, once: the next one needs a later success.
    if (drops.any() && !closed && pending <= maxPendingBytes) accept(drops.report());
    if (pending === 0) settle?.();
  });

  const accept = (line: string): void => {
    pending += Buffer.byteLength(line);
    stream.write(line);
  };

  return {
    write(line) {
      if (closed) return;
      // A destination that refuses writes is not a slow one: buffering for it would hold memory
      // only to lose the same lines later. One that falls behind gets its bound.
      if (failure !== undefined || pending + Buffer.byteLength(line) > maxPendingBytes) return drops.add();
      accept(line);
    },
    close(timeoutMs = CLOSE_TIMEOUT_MS) {
      if (closed) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(deadline);
          clearTimeout(retry);
          closed = true;
          settle = undefined;
          resolve();
        };
        const deadline = setTimeout(done, timeoutMs);
        if (pending === 0) return done();
        settle = done;
        // A destination that failed gets one last try now, rather than the whole timeout.
        if (failure !== undefined) stream.write('');
      });
    },
  };
}

/**
 * A descriptor of stdout whose writes never wait in the kernel. A write waiting there holds one of
 * libuv's threads, and the process cannot end until it returns: a terminal or a pipe nobody reads
 * would keep it from ever ending. A regular file's writes do not wait for a reader, so stdout is
 * written as it is; a terminal or a pipe is opened again, non-blocking, through /proc (as libuv does
 * for a terminal it writes to: the other processes sharing it are not affected).
 */
function stdoutDescriptor(): number {
  if (fstatSync(1).isFile()) return 1;
  try {
    return openSync('/proc/self/fd/1', constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    // A socket cannot be opened so (nor, without /proc, anything): Node's own stream for stdout,
    // once made, puts a socket or a pipe in non-blocking mode.
    void process.stdout;
    return 1;
  }
}

/** The lines dropped since the last report, counted for the report that says how many and since when. */
function droppedLines(worker: number | undefined) {
  let dropped = 0;
  let since = 0;
  /** The last failure since the last report, which it names. */
  let failedWith: string | undefined;
  return {
    /** Counts one more line dropped. */
    add(): void {
      if (dropped === 0) since = Date.now();
      dropped++;
    },
    /** A write failed with `code`: the next report names it. */
    noteFailure(code: string): void {
      failedWith = code;
    },
    /** Whether a line was dropped since the last report. */
    any: (): boolean => dropped > 0,
    /** The line reporting the lines dropped so far; counting starts again. */
    report(): string {
      const line = droppedReport(dropped, since, failedWith, worker);
      dropped = 0;
      failedWith = undefined;
      return line;
    },
  };
}

/**
 * The line reporting `dropped` lines since `since` (epoch ms, as pino's `time`), shaped as pino's own
 * lines are; `error` is the code of the last failed write, absent when the destination only fell behind.
 */
function droppedReport(dropped: number, since: number, error: string | undefined, worker: number | undefined): string {
  const fields = {
    level: WARN_LEVEL, time: Date.now(), pid: process.pid, hostname: hostname(), ...(worker === undefined ? {} : { worker }),
    dropped, since, ...(error === undefined ? {} : { error }), msg: DROPPED_MESSAGE,
  };
  return `${JSON.stringify(fields)}\n`;
}
