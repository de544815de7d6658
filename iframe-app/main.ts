/**
 * The map frame: what runs inside the iframe on the service's origin. It draws the map at once from
 * the URL fragment, says hello to the page, receives the session token over the private channel, and
 * from then on turns clicks and key presses into codes: preview (save false), then — when the visitor
 * confirms, or at once with `confirm: false` — a saved selection handed to the page's `onSelect`.
 */
import type * as L from 'leaflet';
import type { FrameApi, FrameInit, HostCallbacks } from '../src/embed/protocol.ts';
import { EmbedFailure, RECOVERABLE, gridData } from './api.ts';
import { connect } from './channel.ts';
import { createChoice } from './choice.ts';
import { readConfig, readStart } from './config.ts';
import { enableKeyboard } from './crosshair.ts';
import { gridColumns } from './grid-layer.ts';
import { addLocateControl, createMap, openLinksInNewTab } from './map.ts';
import { VISITOR_MESSAGES, createPanel } from './panel.ts';
import { createSelection } from './selection.ts';
import { startSession, type Session } from './session.ts';
import { createView } from './view.ts';

/** `onReady` waits for the first tiles at most this long: a slow tile server must not hold the map back. */
const READY_AT_LATEST_MS = 4000;

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
  // Set by init, over the channel: the page's callbacks, and the session started with its token.
  let host: HostCallbacks | undefined;
  let confirm = true;
  let session: Session | undefined;
  let stopped = false;

  const stop = (message: string) => {
    stopped = true;
    session?.stop();
    choice.abort();
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

  const choice = createChoice({
    selection,
    panel,
    chooser: () => (session && !stopped && !session.isOver() ? { session, confirm, host: host! } : undefined),
    onFailure: report,
    hush: () => keyboard.hush(),
  });
  panel.onConfirm(choice.confirm);
  map.on('click', (event: L.LeafletMouseEvent) => void choice.choose(event.latlng.wrap()));
  // A stopped map still moves, but Enter no longer chooses: its alert is the last thing said.
  const announceUnlessStopped = (text: string) => {
    if (!stopped) panel.announce(text);
  };
  const keyboard = enableKeyboard(map, { motion, columns, choose: choice.chooseByKey, clear: choice.clear, announce: announceUnlessStopped });

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
      confirm = init.confirm;
      if (init.token.slice(0, init.token.indexOf('.')) !== config.sid) {
        return report(new EmbedFailure('invalid_session', 'The session token is not the one this frame was opened for.'));
      }
      // Known when the page was written: said now, never after an onReady that would mislead.
      if (config.refusal) return report(new EmbedFailure(config.refusal.code, config.refusal.message));
      view.setStyle(init.style);
      view.setView(init.center, init.zoom);
      session = startSession(config, {
        token: init.token,
        skew,
        renew: init.renewable ? () => callbacks.renew() : undefined,
        onExpired,
      });
      // Checked before onReady: a mangled secret is reported now rather than on the visitor's first click.
      const checked = session.verify().then((failure) => failure && report(failure));
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
