/**
 * The map frame's testing contract: what an automated browser test — loc-js/testing's helpers, or an
 * integrator's own suite — may rely on inside the frame, beside what the page hears through its
 * callbacks. The frame (iframe-app/) keeps it; loc-js/testing bundles its names. docs/embed.md
 * describes it for integrators.
 *
 * - The frame's root, `#loc`, says how far the map has come in `data-state`.
 * - A session made with a test key shows the "Test mode" badge, `#loc-test-mode`.
 * - The frame's window holds the testing hook, `window.locTesting`: only code of the frame's own origin
 *   (the service's) or a browser's automation can reach it — the integrator's page, on another origin,
 *   cannot touch a cross-origin frame's window — and it does nothing the visitor could not do with a
 *   click, "Use this location" or a wait.
 */
import type { LocEmbedError, LocLatLng, LocResolveResult, LocSelectResult } from './public-types.ts';

/** The frame's root element, which carries `data-state`. */
export const ROOT_SELECTOR = '#loc';

/**
 * `data-state` of the root: `loading` until the page has heard `onReady`; `ready` from then on, while
 * the visitor may choose; `stopped` once the map stopped (its session expired, a refusal, a load
 * timeout …), its alert (`role="alert"`) saying why.
 */
export type FrameState = 'loading' | 'ready' | 'stopped';

/** The badge a test-mode session shows, text "Test mode". */
export const TEST_MODE_SELECTOR = '#loc-test-mode';

/** The name of the testing hook on the frame's window. */
export const TESTING_HOOK = 'locTesting';

/**
 * What a visitor's choice came to: a preview awaiting "Use this location"; the chosen cell, what the
 * page's `onSelect` received, once it ran; a failure, what the visitor was shown and `onError`
 * received; or nothing chosen (`refused`) — the map was not ready or had stopped, or a later choice
 * dropped this one — and why.
 */
export type PickOutcome =
  | { state: 'preview'; result: LocResolveResult }
  | { state: 'chosen'; result: LocSelectResult }
  | { state: 'failed'; error: LocEmbedError }
  | { state: 'refused'; message: string };

/** `window.locTesting`: what a test may ask of the frame. Every call waits for nothing: see `data-state` first. */
export interface FrameTestingHook {
  /**
   * Chooses `target` as the visitor would: a point as a click there does, a code as typing it does;
   * the map comes to the cell. With the mount's `confirm` (the default), the cell is previewed, and
   * `confirm: true` then presses "Use this location". `onSelect` says `source: 'visitor'`.
   */
  pick(target: string | LocLatLng, confirm: boolean): Promise<PickOutcome>;
  /**
   * Moves the session's clock `ms` ahead (to its expiry when omitted), as if that time had passed for
   * the frame alone: what falls due then happens at once — the renewal through `getSessionToken` when
   * the session is within its renewal lead, `session_expired` when it is past its end. Resolves once a
   * renewal so started has settled. The service's clock is untouched.
   */
  advance(ms?: number): Promise<void>;
}
