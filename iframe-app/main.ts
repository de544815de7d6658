/**
 * The map frame: what runs inside the iframe on the service's origin. It draws the map at once from
 * the URL fragment, says hello to the page, receives the session token over the private channel, and
 * from then on turns clicks and key presses into codes: preview (save false), then — when the visitor
 * confirms, or at once with `confirm: false` — a saved selection handed to the page's `onSelect`.
 */
import type * as L from 'leaflet';
import { kindOf } from '../src/embed/options.ts';
import type { FrameApi, FrameInit, HostCallbacks, LatLng } from '../src/embed/protocol.ts';
import type { LocSelectResult } from '../src/embed/public-types.ts';
import { EmbedFailure, RECOVERABLE, gridData, resolvePoint, sessionInfo } from './api.ts';
import { connect } from './channel.ts';
import { readConfig, readStart } from './config.ts';
import { enableKeyboard } from './crosshair.ts';
import { watchExpiry, type Expiry } from './expiry.ts';
import { gridColumns } from './grid-layer.ts';
import { addLocateControl, createMap, openLinksInNewTab } from './map.ts';
import { VISITOR_MESSAGES, createPanel } from './panel.ts';
import { createSelection } from './selection.ts';
import { tokenMatches } from './session-token.ts';
import { createView } from './view.ts';

/** `onReady` waits for the first tiles at most this long: a slow tile server must not hold the map back. */
const READY_AT_LATEST_MS = 4000;

/** Thrown when the session ended while a call was under way; the expiry has been reported already. */
const SESSION_ENDED = new Error('session ended');

function start(): void {
  const root = document.getElementById('loc') as HTMLElement;
  const panel = createPanel(document);
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(document);
  } catch {
    panel.message('This map could not start. Reload the page and try again.');
    return;
  }
  const startOptions = readStart(location.hash);
  const frameMap = createMap(document.getElementById('loc-map') as HTMLElement, startOptions);
  const { map, motion } = frameMap;
  openLinksInNewTab(root);
  const columns = gridColumns(() => gridData(config.apiBase));
  const view = createView(frameMap, config.styles, startOptions.style, columns);
  const selection = createSelection(map);
  addLocateControl(map, motion, panel.message);

  const skew = Date.parse(config.now) - Date.now();
  // Set by init, over the channel: the page's callbacks, the token (replaced on renewal) and its expiry.
  let host: HostCallbacks | undefined;
  let token = '';
  let confirm = true;
  let expiry: Expiry | undefined;
  let stopped = false;
  let pending: AbortController | undefined;
  let preview: LocSelectResult | undefined;

  const stop = (message: string) => {
    stopped = true;
    expiry?.stop();
    pending?.abort();
    keyboard.hush();
    root.classList.add('loc--stopped');
    panel.message(message);
  };

  const report = (failure: EmbedFailure) => {
    if (stopped) return;
    const wait = failure.retryAfter ? ` (about ${Math.max(1, Math.round(failure.retryAfter / 60))} min)` : '';
    panel.message(VISITOR_MESSAGES[failure.code] + wait);
    void host?.error(failure.toJSON());
    if (!RECOVERABLE[failure.code]) stop(VISITOR_MESSAGES[failure.code]);
  };

  const onExpired = (renewalError?: unknown) => {
    if (stopped) return;
    const why = renewalError === undefined ? '' : ` Renewing it through getSessionToken failed: ${(renewalError as Error)?.message ?? renewalError}`;
    void host?.error(new EmbedFailure('session_expired', `The session has expired.${why}`).toJSON());
    stop(VISITOR_MESSAGES.session_expired);
  };

  /** Asks the page for a new token and checks that the service knows it, for this origin. */
  const renewToken = async (): Promise<number> => {
    const next = await host!.renew();
    // kindOf, never the value: it may be the token, or a session response holding it.
    if (typeof next !== 'string' || !/^[\w-]+\.[\w-]+$/.test(next)) {
      throw new Error(`getSessionToken must resolve with the session_token, "<sid>.<secret>"; it gave ${kindOf(next)}.`);
    }
    const info = await sessionInfo(config.apiBase, next);
    if (info.origin !== config.origin) throw new Error(`The new session is for ${info.origin}, this map's for ${config.origin}.`);
    token = next;
    return Date.parse(info.expires_at);
  };

  /**
   * Resolves with the current token. When the service says the session ended, or has used all its
   * requests, renews once through the page and retries; a spent session that cannot be renewed is
   * reported as such.
   */
  const resolve = async (point: LatLng, save: boolean, signal: AbortSignal): Promise<LocSelectResult> => {
    try {
      return await resolvePoint(config.apiBase, token, point, save, signal);
    } catch (error) {
      if (!(error instanceof EmbedFailure)) throw error;
      if (error.code === 'session_expired') {
        if (!(await expiry!.renewNow())) throw SESSION_ENDED;
      } else if (error.code !== 'session_limit_reached' || !(await expiry!.replace())) {
        throw error;
      }
      return resolvePoint(config.apiBase, token, point, save, signal);
    }
  };

  const attempt = async (point: LatLng, save: boolean, done: (result: LocSelectResult) => void) => {
    // Every choice comes here (click, Enter, Space, confirming): a move announced after it would cut
    // off the code's.
    keyboard.hush();
    if (!expiry || stopped || expiry.isExpired()) return;
    pending?.abort();
    const controller = (pending = new AbortController());
    panel.message(null);
    panel.busy();
    try {
      const result = await resolve(point, save, controller.signal);
      if (controller === pending) done(result);
    } catch (error) {
      if (controller !== pending || error === SESSION_ENDED || (error as Error)?.name === 'AbortError') return;
      preview = undefined;
      selection.clear();
      panel.hide();
      report(error instanceof EmbedFailure ? error : new EmbedFailure('internal_error', String(error)));
    }
  };

  const choose = (point: LatLng) =>
    attempt(point, !confirm, (result) => {
      selection.show(result.cell, [result.latitude, result.longitude], !confirm);
      panel.show(result, confirm ? 'preview' : 'chosen');
      preview = confirm ? result : undefined;
      if (!confirm) void host?.select(result);
    });

  panel.onConfirm(() => {
    if (!preview) return;
    attempt({ lat: preview.latitude, lng: preview.longitude }, true, (result) => {
      preview = undefined;
      selection.show(result.cell, [result.latitude, result.longitude], true);
      panel.show(result, 'chosen');
      void host?.select(result);
    });
  });

  const clear = () => {
    pending?.abort();
    preview = undefined;
    selection.clear();
    // Escape by keyboard: said, since nothing else a screen reader follows changes where focus is;
    // then the keys' pending announcement gives way. With nothing to clear, nothing is said or dropped.
    if (panel.isShown()) {
      keyboard.hush();
      panel.announce('Choice cleared.');
    }
    panel.hide();
  };

  map.on('click', (event: L.LeafletMouseEvent) => void choose(event.latlng.wrap()));
  // Enter on the cell already previewed confirms it: the button is eight Tab stops away, behind the
  // map's controls and attributions.
  const inPreview = (point: LatLng) =>
    preview !== undefined && point.lat >= preview.cell.south && point.lat < preview.cell.north &&
    point.lng >= preview.cell.west && point.lng < preview.cell.east;
  const chooseByKey = (point: LatLng) => {
    if (inPreview(point) && panel.confirm()) return;
    void choose(point);
  };
  // A stopped map still moves, but Enter no longer chooses: its alert is the last thing said.
  const announceUnlessStopped = (text: string) => {
    if (!stopped) panel.announce(text);
  };
  const keyboard = enableKeyboard(map, { motion, columns, choose: chooseByKey, clear, announce: announceUnlessStopped });

  const api: FrameApi = {
    init(init: FrameInit, callbacks: HostCallbacks) {
      if (host) return;
      host = callbacks;
      // The frame gave up on a page that did not connect in time, and shows that it stopped; a page so
      // busy that its connect came later still waits for onReady, and must hear that it never comes.
      if (stopped) {
        void callbacks.error(new EmbedFailure('load_timeout', 'The page connected to the map frame after its loadTimeout.').toJSON());
        return;
      }
      token = init.token;
      confirm = init.confirm;
      if (token.slice(0, token.indexOf('.')) !== config.sid) {
        return report(new EmbedFailure('invalid_session', 'The session token is not the one this frame was opened for.'));
      }
      // Known when the page was written: said now, never after an onReady that would mislead.
      if (config.refusal) return report(new EmbedFailure(config.refusal.code, config.refusal.message));
      view.setStyle(init.style);
      view.setView(init.center, init.zoom);
      expiry = watchExpiry({
        expiresAt: Date.parse(config.expiresAt),
        skew,
        renew: init.renewable ? renewToken : undefined,
        onExpired,
      });
      // The loader checked the sid only; the whole token is checked now, so a mangled secret is
      // reported before onReady rather than on the visitor's first click — here, or by the service
      // where the page has no Web Crypto. A check that cannot be made (network, 5xx) does not hold
      // the map back: the first click will say what is wrong.
      const checked = tokenMatches(token, config.tokenCheck)
        .then((matches) => matches ?? sessionInfo(config.apiBase, token).then(() => true))
        .then((matches) => {
          if (!matches) report(new EmbedFailure('invalid_session', 'The session token is not this session’s.'));
        })
        .catch((error: unknown) => {
          if (error instanceof EmbedFailure && !RECOVERABLE[error.code]) report(error);
        });
      const atLatest = new Promise<void>((resolve) => setTimeout(resolve, READY_AT_LATEST_MS));
      void Promise.all([Promise.race([view.firstLoad, atLatest]), Promise.race([checked, atLatest])]).then(() => {
        if (!stopped) void callbacks.ready({ ...view.shown(), expiresAt: config.expiresAt });
      });
    },
    setStyle: view.setStyle,
    setView: view.setView,
  };

  if (window.parent === window) {
    panel.message('This map is meant to be embedded in a page with loc-embed.js.');
    return;
  }
  // Unanswered, the hello means the page stopped waiting for this frame (its loadTimeout, most likely):
  // the visitor sees the map stopped rather than a map that silently does nothing.
  connect(window, { origin: config.origin, nonce: startOptions.nonce, api, until: startOptions.until, onUnanswered: () => stop(VISITOR_MESSAGES.load_timeout) });
}

start();
