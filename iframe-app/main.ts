/**
 * The map frame: what runs inside the iframe on the service's origin. It draws the map at once from
 * the URL fragment and says hello to the page; this module wires the frame's parts. Its life over the
 * channel — init, the session, onReady, stopping — is lifecycle.ts's; the visitor's choice (preview,
 * confirm, select) choice.ts's; the keyboard crosshair.ts's; the search box search.ts's; what the
 * visitor reads panel.ts's; what an automated test may ask of the frame testing-hook.ts's.
 */
import type * as L from 'leaflet';
import type { FrameConfig } from '../src/embed/protocol.ts';
import { TESTING_HOOK } from '../src/embed/testing-contract.ts';
import { EmbedFailure, gridData } from './api.ts';
import { applyAppearance } from './appearance.ts';
import { keepInside } from './area.ts';
import { connect } from './channel.ts';
import { createChoice } from './choice.ts';
import { readConfig, readStart, type Start } from './config.ts';
import { enableKeyboard } from './crosshair.ts';
import { gridColumns, type GridColumns } from './grid-layer.ts';
import { LOCALES, directionOf, localiseDocument, pickLocale, t, whenCatalogue, type LocaleChoice } from './i18n.ts';
import { createLifecycle } from './lifecycle.ts';
import { addLocateControl, addZoomControl, createMap, openLinksInNewTab, type FrameMap } from './map.ts';
import { createPanel, type Panel } from './panel.ts';
import { enableSearch } from './search.ts';
import { createSelection, type Selection } from './selection.ts';
import { createTestingHook } from './testing-hook.ts';
import { createView, type View } from './view.ts';

/** frame.js's own URL, with its `?v=`: the catalogues are beside it. Read now: only while the script first runs is it known. */
const frameScript = (document.currentScript as HTMLScriptElement | null)?.src;

function start(): void {
  const root = document.getElementById('loc') as HTMLElement;
  const panel = createPanel(document);
  let config: FrameConfig;
  try {
    config = readConfig(document);
  } catch {
    panel.message(t('start.failed'));
    return;
  }
  const startOptions = readStart(location.hash);
  const language = pickLocale(startOptions.locale, startOptions.pageLocale);
  // Before the first paint: the theme's colours, and the controls in their language's corners.
  const invalidAppearance = applyAppearance(document, startOptions.appearance);
  const frameMap = createMap(document.getElementById('loc-map') as HTMLElement, startOptions, config.bounds, directionOf(language.locale));
  const { map, motion } = frameMap;
  keepInside(map, config.bounds);
  openLinksInNewTab(root);
  const columns = gridColumns(() => gridData(config.apiBase));
  const view = createView(frameMap, config.styles, startOptions.style, columns);
  const selection = createSelection(map, motion);
  // The map draws meanwhile; what has words waits for them, so that nothing is said in English first.
  whenCatalogue(language.locale, frameScript ?? `${config.apiBase}/embed/frame.js`, () => speak(config, startOptions, language, invalidAppearance, { root, panel, frameMap, view, selection, columns }));
}

interface Parts {
  root: HTMLElement;
  panel: Panel;
  frameMap: FrameMap;
  view: View;
  selection: Selection;
  columns: GridColumns;
}

/** The rest of the frame, in the frame's language: its words, its controls, its life over the channel. */
function speak(config: FrameConfig, startOptions: Start, language: LocaleChoice, invalidAppearance: EmbedFailure[], { root, panel, frameMap, view, selection, columns }: Parts): void {
  const { map, motion } = frameMap;
  localiseDocument(document);
  // Before anything can go wrong: a test integration must never pass for a live one.
  if (config.testMode) (document.getElementById('loc-test-mode') as HTMLElement).hidden = false;
  addZoomControl(frameMap);
  addLocateControl(frameMap, panel.message);
  // The integrator's mistakes the map works around, told at init (invalid_option).
  const invalidOptions = [
    ...(language.unsupported
      ? [new EmbedFailure('invalid_option', `locale ${JSON.stringify(language.unsupported)} has no catalogue; the map speaks ${language.locale} instead. Supported locales: ${LOCALES.join(', ')}.`)]
      : []),
    ...invalidAppearance,
  ];

  const frame = createLifecycle({
    config,
    invalidOptions,
    // Read as the frame starts, against the service's clock when it wrote the page.
    skew: Date.parse(config.now) - Date.now(),
    view,
    panel,
    root,
    onStop: () => {
      choice.abort();
      keyboard.hush();
    },
    open: (code) => choice.open(code),
  });
  const choice = createChoice({
    selection,
    panel,
    chooser: frame.live,
    cannotChoose: frame.cannotChoose,
    settled: frame.settled,
    onFailure: frame.report,
    hush: () => keyboard.hush(),
  });
  panel.onConfirm(() => void choice.confirm());
  map.on('click', (event: L.LeafletMouseEvent) => void choice.choose(event.latlng.wrap()));
  const keyboard = enableKeyboard(map, {
    motion,
    columns,
    choose: choice.chooseByKey,
    clear: choice.clear,
    // A stopped map still moves, but Enter chooses nothing: its alert is the last thing said.
    announce: (text) => {
      if (!frame.isStopped()) panel.announce(text);
    },
  });

  if (startOptions.search) {
    enableSearch({ doc: document, map, view, choice, panel, search: () => frame.live()?.session.search });
  }

  Object.assign(window, { [TESTING_HOOK]: createTestingHook({ choice, selection, session: () => frame.live()?.session }) });

  if (window.parent === window) {
    panel.message(t('start.notEmbedded'));
    return;
  }
  // Unanswered, the hello means the page stopped waiting for this frame (its loadTimeout, most likely):
  // the visitor sees the map stopped rather than a map that silently does nothing.
  connect(window, {
    origin: config.origin,
    nonce: startOptions.nonce,
    api: { init: frame.init, setStyle: view.setStyle, setView: view.setView, select: choice.select, clear: choice.clearByPage },
    until: startOptions.until,
    onUnanswered: () => frame.stop(new EmbedFailure('load_timeout', 'The page did not connect to the map frame within its loadTimeout.')),
  });
}

start();
