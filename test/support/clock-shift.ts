/**
 * The clock of spawned servers moved forward (clock-shift.mjs), so that a clock hour — where loc's
 * hourly windows turn — ends when a suite wants it to, instead of at the real one. The servers start
 * early in an hour of their clock, far from its end however long they take; `endHourIn` then jumps
 * their clock forward so that the hour ends a set time later.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HOUR_MS = 3_600_000;

/** Where the servers' clock starts in its hour: the hour's end is 50 minutes away. */
const START_IN_HOUR_MS = 600_000;

/** Long enough for every process to have read a new shift (clock-shift.mjs reads it every 20 ms). */
const SETTLE_MS = 150;

export interface ShiftedClock {
  /** What a spawned server adds to its environment: the preload in NODE_OPTIONS (a cluster's workers inherit it) and the file. */
  env: Record<string, string>;
  /** Jumps the servers' clock forward so that their hour ends `inMs` from now; resolves once every process has had time to read it. */
  endHourIn(inMs: number): Promise<void>;
  /** Once `endHourIn` has been called: the end of the hour on the servers' clock, and the same moment on this process's. */
  hourEnd: number;
  hourEndHere: number;
  /** The servers' time, read here. */
  now(): number;
  /** Removes the file: for when the servers are gone. */
  dispose(): void;
}

/** A clock for spawned servers that starts 10 minutes into an hour. */
export function shiftedClock(): ShiftedClock {
  const dir = mkdtempSync(join(tmpdir(), 'loc-clock-'));
  const file = join(dir, 'shift-ms');
  let shiftMs = 0;
  const write = (ms: number): void => {
    shiftMs = ms;
    // Whole or not at all: a process reading it meanwhile sees the old shift or the new one.
    writeFileSync(`${file}.new`, String(ms));
    renameSync(`${file}.new`, file);
  };
  write((HOUR_MS - (Date.now() % HOUR_MS) + START_IN_HOUR_MS) % HOUR_MS);
  const preload = fileURLToPath(new URL('./clock-shift.mjs', import.meta.url));
  const clock: ShiftedClock = {
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${preload}`.trim(), LOC_TEST_CLOCK_SHIFT_FILE: file },
    async endHourIn(inMs) {
      const endHere = Date.now() + inMs;
      const end = Math.ceil((endHere + shiftMs) / HOUR_MS) * HOUR_MS;
      write(end - endHere);
      Object.assign(clock, { hourEnd: end, hourEndHere: endHere });
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    },
    hourEnd: NaN,
    hourEndHere: NaN,
    now: () => Date.now() + shiftMs,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
  return clock;
}
