/**
 * A preload (`node --import <this file>`) that moves a process's wall clock forward: `Date.now()`, and
 * `new Date()` and `Date()` without arguments, are ahead of the real clock by the milliseconds written
 * in the file LOC_TEST_CLOCK_SHIFT_FILE names. It lets a suite put the end of a clock hour — where
 * loc's hourly windows turn — where it wants, instead of waiting for the real one. Given in
 * NODE_OPTIONS, it reaches a cluster's workers too, whose environment is the primary's.
 *
 * The file is read at start and again every SHIFT_POLL_MS while the process runs: a suite moves the
 * hour's end once its servers are up and warm, so that it comes a set time after its burst starts
 * however long the start took (2 to 10 s for a fleet on two busy cores). The shift may only grow —
 * the clock only jumps forward, as after a time step — and is never negative.
 *
 * Plain JavaScript: Node loads it before anything else, without the TypeScript loader. The monotonic
 * clocks (`performance.now()`, `process.hrtime`) are left alone: they measure durations, not dates.
 */
import { readFileSync } from 'node:fs';

const SHIFT_POLL_MS = 20;

const file = process.env.LOC_TEST_CLOCK_SHIFT_FILE;
if (file === undefined) throw new Error('clock-shift.mjs is loaded without LOC_TEST_CLOCK_SHIFT_FILE');

let shift = 0;
const readShift = () => {
  const read = Number(readFileSync(file, 'utf8'));
  if (!Number.isSafeInteger(read) || read < 0) throw new Error(`${file} must hold a whole number of milliseconds, 0 or more`);
  shift = Math.max(shift, read);
};
readShift();
setInterval(() => {
  try {
    readShift();
  } catch {
    // Being rewritten, or gone with the suite: the clock keeps its shift.
  }
}, SHIFT_POLL_MS).unref();

const RealDate = globalThis.Date;
const realNow = RealDate.now.bind(RealDate);
// On the real Date itself: code that kept a reference to it (or to Date.now) is moved as well.
RealDate.now = () => realNow() + shift;
globalThis.Date = new Proxy(RealDate, {
  construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [RealDate.now()] : args, newTarget),
  apply: () => new RealDate(RealDate.now()).toString(),
});
