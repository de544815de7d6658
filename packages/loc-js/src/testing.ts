/**
 * loc-js/testing — for the integrator's own tests, in two halves:
 *
 * - Playwright helpers, given a `Page`: find the map frames, wait until a map is ready, choose a point
 *   or a code as the visitor would (through the frame's testing hook, src/embed/testing-contract.ts),
 *   move a session towards its renewal or its expiry, and switch the failures of `loc mock` on and off.
 * - A typed fake `LOC` for component tests in jsdom (fake-loc.ts), which `loadLoc` resolves to once it
 *   is installed.
 *
 * `@playwright/test` is an optional peer dependency, imported here as types only: the fake runs
 * without it, and nothing of it is bundled.
 */
import type { Frame, Page } from '@playwright/test';
import type { LocEmbedError, LocLatLng, LocResolveResult, LocSelectResult } from '../../../src/embed/public-types.ts';
import { ROOT_SELECTOR, TESTING_HOOK, TEST_MODE_SELECTOR, type FrameState, type FrameTestingHook, type PickOutcome } from '../../../src/embed/testing-contract.ts';

export { createFakeLoc, type FakeLoc, type FakeMount, type FakeHandleCall } from './fake-loc.ts';

/** The map frames `LOC.mount` puts into a page: iframes on the service's session-bound frame URL. */
export const LOC_FRAME_SELECTOR = 'iframe[src*="/embed/frame/"]';

/** The frame's "Test mode" badge, shown by a session made with a test key (`loc_test_…`). */
export const LOC_TEST_MODE_SELECTOR: string = TEST_MODE_SELECTOR;

/** Which map of the page, when it has several. */
export interface LocFrameOptions {
  /** The map's index among the page's loc frames, in document order. @default 0 */
  nth?: number;
  /** Milliseconds to wait, as Playwright's own `timeout` options; 0 for none. @default Playwright's action timeout */
  timeout?: number;
}

/**
 * The frame of the page's `nth` map (the first by default), once its iframe is in the page with a
 * document. An iframe being replaced — removed by a remount, or just added and not yet a frame — is
 * waited past, up to the timeout.
 */
export async function locFrame(page: Page, options: LocFrameOptions = {}): Promise<Frame> {
  const iframe = page.locator(LOC_FRAME_SELECTOR).nth(options.nth ?? 0);
  const budget = budgetOf(options);
  for (;;) {
    // Resolves the iframe anew on each try, until one has a document.
    await iframe.contentFrame().locator(':root').waitFor({ state: 'attached', ...budget.left() });
    const frame = await (await iframe.elementHandle(budget.left())).contentFrame();
    if (frame && !frame.isDetached()) return frame;
    if (budget.over()) throw new Error(`loc-js/testing: loc frame ${options.nth ?? 0} has no document (was it destroyed?).`);
  }
}

/**
 * Waits until the `nth` map is interactive — the condition `onReady` signals, and the page's `onReady`
 * has run — and returns its frame. A frame replaced while it waits (the page mounted the map again)
 * is left for the live one. Throws, with what the map shows the visitor, when the map stopped
 * instead (its session expired or was refused, the page did not connect in time …).
 */
export async function waitForLocReady(page: Page, options: LocFrameOptions = {}): Promise<Frame> {
  return onLiveFrame(page, options, async (frame) => frame);
}

/**
 * Runs `action` on the `nth` map's frame once it is ready, and again on the frame that replaced it
 * when the page mounted the map anew meanwhile (the frame is detached: what it did is gone with it),
 * until the timeout.
 */
async function onLiveFrame<T>(page: Page, options: LocFrameOptions, action: (frame: Frame) => Promise<T>): Promise<T> {
  const budget = budgetOf(options);
  for (;;) {
    const frame = await locFrame(page, { ...options, ...budget.left() });
    try {
      await readyIn(frame, options.nth ?? 0, budget);
      return await action(frame);
    } catch (error) {
      if (!frame.isDetached()) throw error;
    }
  }
}

/** Waits until the map in `frame` is ready; throws with what it shows the visitor when it stopped instead. */
async function readyIn(frame: Frame, nth: number, budget: Budget): Promise<void> {
  const root = frame.locator(`${ROOT_SELECTOR}[data-state]:not([data-state="loading"])`);
  await root.waitFor({ state: 'attached', ...budget.left() });
  if ((await root.getAttribute('data-state', budget.left())) !== ('ready' satisfies FrameState)) {
    const why = await frame.getByRole('alert').textContent(budget.left());
    throw new Error(`loc-js/testing: loc frame ${nth} stopped instead of becoming ready: ${why}`);
  }
}

export interface PickOptions extends LocFrameOptions {
  /**
   * Presses "Use this location" after the preview, as the visitor confirms. false leaves the cell
   * previewed (no `onSelect`) on a map mounted with `confirm: true`; a map mounted with
   * `confirm: false` chooses at once either way. @default true
   */
  confirm?: boolean;
}

/**
 * What `pickLocation` rejects with when the map chose nothing: `cause` is the `LocEmbedError` the
 * page's `onError` received when the service refused the point or code (`cause.code` says why), and
 * undefined when the map could not choose at all.
 */
export class LocPickError extends Error {
  override readonly name = 'LocPickError';
  declare readonly cause: LocEmbedError | undefined;

  constructor(message: string, cause?: LocEmbedError) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/**
 * Chooses a cell on the `nth` map as the visitor would — a point as a click on it does, a code as the
 * visitor typing it does — with the map brought to it, no pixel to find; waits for the map to be
 * ready first. Resolves once the page's `onSelect` has run, with what it received (`source:
 * 'visitor'`); with `confirm: false`, with the previewed result when the map previews. Rejects with
 * a `LocPickError` (its `cause` the `LocEmbedError` `onError` received) when the service refused the
 * point or code, and when the map cannot choose.
 */
export function pickLocation(page: Page, target: string | LocLatLng, options?: PickOptions & { confirm?: true }): Promise<LocSelectResult>;
export function pickLocation(page: Page, target: string | LocLatLng, options: PickOptions): Promise<LocSelectResult | LocResolveResult>;
export async function pickLocation(page: Page, target: string | LocLatLng, options: PickOptions = {}): Promise<LocSelectResult | LocResolveResult> {
  const outcome = await onLiveFrame(page, options, (frame) => frame.evaluate(([name, target, confirm]) => (window as unknown as Record<string, FrameTestingHook>)[name].pick(target, confirm), [
    TESTING_HOOK,
    target,
    options.confirm ?? true,
  ] as const)) as PickOutcome;
  if (outcome.state === 'failed') throw new LocPickError(`loc-js/testing: pickLocation(${JSON.stringify(target)}) failed with ${outcome.error.code}: ${outcome.error.message}`, outcome.error);
  if (outcome.state === 'refused') throw new LocPickError(`loc-js/testing: pickLocation(${JSON.stringify(target)}) chose nothing: ${outcome.message}`);
  return outcome.result;
}

/**
 * Moves the `nth` map's session clock `ms` ahead, as if that time had passed for the map (and only
 * for it: the service's clock, and the page's, stay). What falls due happens at once: within its
 * renewal lead (a minute before `expires_at`, a quarter of the lifetime for short sessions) the map
 * renews through the page's `getSessionToken`, and the returned promise waits for that; past
 * `expires_at` it reports `session_expired`. Works on real time and under `page.clock` alike; the map
 * must be ready.
 */
export async function advanceLocSession(page: Page, ms: number, options: LocFrameOptions = {}): Promise<void> {
  await onLiveFrame(page, options, (frame) => frame.evaluate(([name, ms]) => (window as unknown as Record<string, FrameTestingHook>)[name].advance(ms), [TESTING_HOOK, ms] as const));
}

/**
 * Brings the `nth` map's session to its `expires_at` at once: the map stops and `onError` receives
 * `session_expired`, as when the session runs out (a renewal that falls due on the way is not tried:
 * to test renewal, `advanceLocSession` into the lead).
 */
export async function expireLocSession(page: Page, options: LocFrameOptions = {}): Promise<void> {
  await onLiveFrame(page, options, (frame) => frame.evaluate((name) => (window as unknown as Record<string, FrameTestingHook>)[name].advance(), TESTING_HOOK));
}

/** The failures `loc mock` can be told to answer with. */
export type LocMockFailureCode = 'rate_limited' | 'session_expired' | 'invalid_session' | 'key_inactive' | 'unsupported_location' | 'outside_session_area' | 'network';

export interface MockFailureOptions {
  /** How many requests in a row fail, a positive integer. @default 1 */
  times?: number;
  /** Which requests: the embed's (the map's), the API's (the integrator's server's), or both. @default 'all' */
  scope?: 'embed' | 'api' | 'all';
}

const MOCK_FAILURE_CODES: readonly LocMockFailureCode[] = ['rate_limited', 'session_expired', 'invalid_session', 'key_inactive', 'unsupported_location', 'outside_session_area', 'network'];
const MOCK_SCOPES: readonly string[] = ['embed', 'api', 'all'];

/**
 * Tells the `loc mock` at `baseUrl` to fail the next requests with `code`:
 * `POST {baseUrl}/_mock/failures`, answered 201. Throws when the mock refuses, or is not a mock.
 */
export async function mockFailure(baseUrl: string, code: LocMockFailureCode, options: MockFailureOptions = {}): Promise<void> {
  if (!MOCK_FAILURE_CODES.includes(code)) throw new TypeError(`mockFailure: code must be one of ${MOCK_FAILURE_CODES.join(', ')}; received ${JSON.stringify(code)}.`);
  const { times, scope } = options;
  if (times !== undefined && !(Number.isInteger(times) && times > 0)) throw new TypeError(`mockFailure: times must be a positive integer; received ${JSON.stringify(times)}.`);
  if (scope !== undefined && !MOCK_SCOPES.includes(scope)) throw new TypeError(`mockFailure: scope must be one of ${MOCK_SCOPES.join(', ')}; received ${JSON.stringify(scope)}.`);
  await mockControl(baseUrl, 'POST', 201, JSON.stringify({ code, ...(times === undefined ? {} : { times }), ...(scope === undefined ? {} : { scope }) }));
}

/** Switches every pending failure of the `loc mock` at `baseUrl` off: `DELETE {baseUrl}/_mock/failures`, answered 204. */
export async function clearMockFailures(baseUrl: string): Promise<void> {
  await mockControl(baseUrl, 'DELETE', 204);
}

async function mockControl(baseUrl: string, method: 'POST' | 'DELETE', expected: number, body?: string): Promise<void> {
  const url = `${baseUrl.replace(/\/+$/, '')}/_mock/failures`;
  const response = await fetch(url, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body }) });
  if (response.status !== expected) {
    throw new Error(`loc-js/testing: ${method} ${url} answered ${response.status}, not ${expected}: ${(await response.text()).slice(0, 300)} (is ${baseUrl} a loc mock?)`);
  }
}

/** What is left of a helper's `timeout` for each Playwright call it makes, and whether it ran out. */
interface Budget {
  left(): { timeout?: number };
  over(): boolean;
}

/** The budget of `options.timeout`: without one, each call has Playwright's own timeout (or none, for 0), and it never runs out. */
function budgetOf(options: LocFrameOptions): Budget {
  const { timeout } = options;
  if (!timeout) return { left: () => (timeout === 0 ? { timeout: 0 } : {}), over: () => false };
  const deadline = Date.now() + timeout;
  return { left: () => ({ timeout: Math.max(1, deadline - Date.now()) }), over: () => Date.now() >= deadline };
}
