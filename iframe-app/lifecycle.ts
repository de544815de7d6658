/**
 * The frame's life over the channel. Init hands over the page's callbacks and the token: the frame
 * checks that the token is for its session and that the service has not refused the session, shows the
 * page's view, starts the session and, once the first tiles are in and the whole token is checked, tells
 * the page `onReady`. A failure the map cannot go on from stops it for good: the visitor sees why, the
 * page hears it once through `onError`, and nothing is chosen after it.
 */
import type { FrameApi, FrameConfig, HostCallbacks, LocEmbedError, LocResolveResult } from '../src/embed/protocol.ts';
import { RECOVERABLE } from '../src/embed/recoverable.ts';
import type { FrameState } from '../src/embed/testing-contract.ts';
import { EmbedFailure } from './api.ts';
import type { Chooser } from './choice.ts';
import { currentLocale, t } from './i18n.ts';
import { VISITOR_MESSAGES, type Panel } from './panel.ts';
import { startSession, type Session } from './session.ts';
import type { View } from './view.ts';

/** `onReady` waits for the first tiles at most this long: a slow tile server must not hold the map back. */
const READY_AT_LATEST_MS = 4000;

export interface LifecycleOptions {
  config: FrameConfig;
  /** Service clock minus the visitor's clock, in ms, as the frame started (expiry.ts). */
  skew: number;
  view: View;
  panel: Panel;
  /**
   * The frame's root element: its `data-state` follows the map (testing-contract.ts), and it is marked
   * `loc--stopped` once the map stopped.
   */
  root: HTMLElement;
  /** Ends what else is under way when the map stops: the lookup, the keys' announcement. */
  onStop(): void;
  /** Opens the map on `LocMountOptions.value` as chosen (choice.ts `open`); onReady waits for it and carries it. */
  open(code: string): Promise<LocResolveResult | undefined>;
  /** Options the frame could not use as given (`invalid_option`), found as it started: told to the page at init. */
  invalidOptions?: EmbedFailure[];
}

/** What init handed over, once the session started. */
export interface Live extends Chooser {
  session: Session;
  host: HostCallbacks;
}

export interface Lifecycle extends Pick<FrameApi, 'init'> {
  /** What init handed over, while the visitor may choose: not before init, once stopped, or once the session is over. */
  live(): Live | undefined;
  /** Tells the visitor and the page what went wrong; stops the map when it cannot go on. */
  report(failure: EmbedFailure): void;
  /**
   * Stops the map for `failure`, showing the visitor its message: the map still moves, but chooses
   * nothing and reports nothing more. The caller tells the page, if anyone.
   */
  stop(failure: EmbedFailure): void;
  isStopped(): boolean;
  /**
   * Resolves once the page has heard `onReady`, or the map stopped: the page's select waits for it,
   * so that its `onSelect` never comes before `onReady`.
   */
  readonly settled: Promise<void>;
  /** While `live()` is undefined, why: what the page's `select` is refused with. */
  cannotChoose(): LocEmbedError;
}

/** What the visitor reads for `failure`, with the wait when the service said how long; null for nothing. */
function visitorMessage(failure: EmbedFailure): string | null {
  const key = VISITOR_MESSAGES[failure.code];
  if (key === null) return null;
  const message = t(key);
  return failure.retryAfter ? t('error.retryAfter', { message, minutes: Math.max(1, Math.round(failure.retryAfter / 60)) }) : message;
}

/** What the lifecycle's steps share: its options, the page's callbacks once it connected, the live session, and whether and why the map stopped. */
interface LifecycleState extends LifecycleOptions {
  host?: HostCallbacks;
  live?: Live;
  stoppedBy?: EmbedFailure;
  stopped: boolean;
  settle(): void;
}

export function createLifecycle(options: LifecycleOptions): Lifecycle {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const state: LifecycleState = { invalidOptions: [], ...options, stopped: false, settle: () => settle() };
  return {
    init: (init, callbacks) => initFrame(state, init, callbacks),
    live: () => (state.live && !state.stopped && !state.live.session.isOver() ? state.live : undefined),
    report: (failure) => report(state, failure),
    stop: (failure) => stop(state, failure),
    isStopped: () => state.stopped,
    settled,
    cannotChoose() {
      if (state.stoppedBy) return state.stoppedBy.toJSON();
      // Not stopped but past init, the session is over: its expiry is about to be reported.
      const why = state.host ? new EmbedFailure('session_expired', 'The session has expired.') : new EmbedFailure('internal_error', 'The map has not been handed its session yet.');
      return why.toJSON();
    },
  };
}

function mark({ root }: LifecycleState, frameState: FrameState): void {
  root.dataset.state = frameState;
}

function stop(state: LifecycleState, failure: EmbedFailure): void {
  state.stopped = true;
  state.stoppedBy = failure;
  state.settle();
  state.live?.session.stop();
  state.onStop();
  mark(state, 'stopped');
  state.root.classList.add('loc--stopped');
  state.panel.message(visitorMessage(failure));
}

function report(state: LifecycleState, failure: EmbedFailure): void {
  if (state.stopped) return;
  // An error without a visitor's message leaves the line as it is: the visitor did nothing wrong.
  const text = visitorMessage(failure);
  if (text !== null) state.panel.message(text);
  void state.host?.error(failure.toJSON());
  if (!RECOVERABLE[failure.code]) stop(state, failure);
}

function onExpired(state: LifecycleState, renewalError?: unknown): void {
  if (state.stopped) return;
  const why = renewalError === undefined ? '' : ` Renewing it through getSessionToken failed: ${(renewalError as Error)?.message ?? renewalError}`;
  const failure = new EmbedFailure('session_expired', `The session has expired.${why}`);
  void state.host?.error(failure.toJSON());
  stop(state, failure);
}

/** The page connected: the map is set up as it asks, its session started, and onReady sent once the map can be used. */
function initFrame(state: LifecycleState, init: Parameters<FrameApi['init']>[0], callbacks: HostCallbacks): void {
  const { config, view } = state;
  if (state.host) return;
  state.host = callbacks;
  // The frame gave up on a page that did not connect in time, and shows that it stopped; a page so
  // busy that its connect came later still waits for onReady, and must hear that it never comes.
  if (state.stopped) {
    void callbacks.error(new EmbedFailure('load_timeout', 'The page connected to the map frame after its loadTimeout.').toJSON());
    return;
  }
  for (const failure of state.invalidOptions ?? []) report(state, failure);
  if (init.token.slice(0, init.token.indexOf('.')) !== config.sid) {
    return report(state, new EmbedFailure('invalid_session', 'The session token is not the one this frame was opened for.'));
  }
  // Known when the page was written: said now, never after an onReady that would mislead.
  if (config.refusal) return report(state, new EmbedFailure(config.refusal.code, config.refusal.message));
  view.setStyle(init.style);
  view.setView(init.center, init.zoom);
  const session = startSession(config, {
    token: init.token,
    skew: state.skew,
    renew: init.renewable ? () => callbacks.renew() : undefined,
    onExpired: (renewalError) => onExpired(state, renewalError),
  });
  state.live = { session, confirm: init.confirm, host: callbacks };
  readyWhenUsable(state, session, init.value, callbacks);
}

/**
 * Sends onReady once the first tiles are drawn, the session checked (each at most READY_AT_LATEST_MS)
 * and the page's value opened; the frame is marked ready and settled once the page has heard it.
 */
function readyWhenUsable(state: LifecycleState, session: Session, value: string | undefined, callbacks: HostCallbacks): void {
  const { config, view } = state;
  // Checked before onReady: a mangled secret is reported now rather than on the visitor's first click.
  const checked = session.verify().then((failure) => failure && report(state, failure));
  // No time limit, unlike the tiles: onReady must say what the map opened on, and a failed lookup is reported before it.
  const opened = value === undefined ? Promise.resolve(undefined) : state.open(value);
  const atLatest = new Promise<void>((resolve) => setTimeout(resolve, READY_AT_LATEST_MS));
  void Promise.all([Promise.race([view.firstLoad, atLatest]), Promise.race([checked, atLatest]), opened]).then(([, , openedValue]) => {
    // Asked, not just sent: settled, and the ready mark a test waits for, wait for the page to have heard it.
    const heard = () => {
      if (!state.stopped) mark(state, 'ready');
      state.settle();
    };
    const language = { locale: currentLocale(), requiredMessage: t('field.required') };
    const info = { ...view.shown(), expiresAt: config.expiresAt, ...language, ...(openedValue && { value: openedValue }) };
    if (!state.stopped) void Promise.resolve(callbacks.ready(info)).then(heard, heard);
  });
}
