/**
 * How many changes one signed-in user may make in the panel per window, counted by the service's
 * counters (store/counters.ts), so the whole fleet shares the count when the counters are shared. A
 * person changing keys, origins and people never comes near it; a script creating keys in a loop is
 * slowed to it. Reading pages and signing out are never counted.
 */
import { LocError } from '../errors.ts';
import type { Counters } from '../store/counters.ts';
import { budget, take } from './throttle.ts';

/** The window of the budget. */
export const PANEL_WRITE_WINDOW_MS = 10 * 60_000;
/** Changes per user per window: a busy afternoon of setting up keys is a few dozen. */
export const PANEL_WRITES_PER_WINDOW = 120;

/** Counts a change of `userId`; throws `panel_writes_throttled`, with when to retry, past the budget. */
export async function takePanelWrite(counters: Counters, userId: string, now: number): Promise<void> {
  const wait = await take(counters, [budget('panel_write', userId, PANEL_WRITES_PER_WINDOW, now, PANEL_WRITE_WINDOW_MS)], now);
  if (wait !== null) throw new LocError('panel_writes_throttled').retryAfter(wait);
}
