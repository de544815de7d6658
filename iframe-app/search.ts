/**
 * The search box over the map: a WAI-ARIA 1.2 combobox (an input that owns a listbox) that takes a
 * place name, coordinates or a code. Typing asks `GET /v1/loc/search` once the visitor pauses, from
 * two characters, with the map's centre as the focus; coordinates are read here, without a request.
 * Arrows move through the results, Enter chooses one — or, with none active, submits the text (and
 * the service may then ask its geocoder, which it never does as the visitor types) — Escape closes
 * the list, and a second Escape empties the box. How many results came is announced in the frame's
 * polite live region.
 *
 * Choosing a place moves the map there; coordinates move it and preview their cell, as a click would.
 * A code is previewed — its cell, its address — before anything is selected, whatever `confirm` says,
 * and one far from the map (FAR_M) is shown only once the visitor says so: a slip of one character
 * nearly always names another cell, anywhere in the country. One outside the session's area, which the
 * service would refuse, is not previewed: asked, the map only shows where it is. A code that names no
 * cell lists the codes it may have meant; none is ever chosen for the visitor.
 */
import { FAR_M } from '../src/code/typos.ts';
import { parseCoordinates } from '../src/search/coordinates.ts';
import type { LatLng } from '../src/embed/protocol.ts';
import type { Map as LeafletMap } from 'leaflet';
import { EmbedFailure, type SearchAnswer, type SearchQuery } from './api.ts';
import type { Choice } from './choice.ts';
import type { Panel } from './panel.ts';
import { t } from './i18n.ts';
import { foundIn, formatDistance, pointFound, type Found } from './search-results.ts';
import { searchList, type SearchList } from './search-list.ts';
import type { View } from './view.ts';

/** The pause in typing after which the text is searched, ms. */
export const DEBOUNCE_MS = 250;
/** The fewest characters searched: one letter starts too many names to list usefully. */
export const MIN_CHARS = 2;
/** Zooms the map is brought to: a place's surroundings, and coordinates' cell with the grid drawn. */
export const PLACE_ZOOM = 13;
export const POINT_ZOOM = 18;
/** A code's cell is shown as the page's select shows one (selection.ts' REVEAL_ZOOM). */
export const CODE_ZOOM = 19;

export interface SearchOptions {
  doc: Document;
  map: LeafletMap;
  view: Pick<View, 'setView'>;
  choice: Pick<Choice, 'choose'>;
  panel: Pick<Panel, 'announce'>;
  /** The session's search, while the visitor may choose; undefined before init and once the map stopped. */
  search(): ((query: SearchQuery, signal: AbortSignal) => Promise<SearchAnswer>) | undefined;
}

/** The question under the box ("Show it?") and the visitor's answer to it. */
interface Asker {
  /** Shows `question` and resolves with the visitor's answer; focus goes to "Show it". */
  confirm(question: string): Promise<boolean>;
  /** Answers the open question, if any, `go` or not. */
  answer(go: boolean): void;
}

function asker(doc: Document): Asker {
  const $ = <T extends HTMLElement>(id: string) => doc.getElementById(id) as T;
  const ask = $<HTMLElement>('loc-search-ask');
  const yes = $<HTMLButtonElement>('loc-search-yes');
  let answerAsked: (go: boolean) => void = () => {};
  const asking: Asker = {
    confirm(question) {
      $<HTMLParagraphElement>('loc-search-ask-text').textContent = question;
      ask.hidden = false;
      yes.focus();
      return new Promise((resolve) => {
        answerAsked = (go) => {
          answerAsked = () => {};
          ask.hidden = true;
          resolve(go);
        };
      });
    },
    answer: (go) => answerAsked(go),
  };
  yes.addEventListener('click', () => asking.answer(true));
  $<HTMLButtonElement>('loc-search-no').addEventListener('click', () => asking.answer(false));
  ask.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    asking.answer(false);
  });
  return asking;
}

/** The box as the search's steps share it: its options, its parts, and the search waiting or under way. */
interface SearchState extends SearchOptions {
  input: HTMLInputElement;
  list: SearchList;
  asking: Asker;
  timer?: ReturnType<typeof setTimeout>;
  pending?: AbortController;
}

export function enableSearch(options: SearchOptions): void {
  const { doc } = options;
  const input = doc.getElementById('loc-search-input') as HTMLInputElement;
  doc.getElementById('loc-search')!.hidden = false;
  doc.getElementById('loc')?.classList.add('loc--search');
  const elements = { doc, input, list: doc.getElementById('loc-search-list') as HTMLUListElement, status: doc.getElementById('loc-search-status') as HTMLParagraphElement };
  const state: SearchState = { ...options, input, list: searchList(elements, options.panel, (item) => void pick(state, item)), asking: asker(doc) };

  input.addEventListener('input', () => {
    cancel(state);
    state.asking.answer(false);
    const q = input.value.trim();
    if (q.length < MIN_CHARS) {
      state.list.setStatus('');
      return state.list.close();
    }
    const point = parseCoordinates(q);
    if (point !== null) return state.list.show([pointFound(point)], '');
    state.timer = setTimeout(() => void run(state, q, false), DEBOUNCE_MS);
  });
  input.addEventListener('keydown', (event) => onKey(event, state));
  input.addEventListener('blur', () => state.list.close());
}

/** Drops the search waiting for a pause or under way. */
function cancel(state: SearchState): void {
  clearTimeout(state.timer);
  state.pending?.abort();
}

/** Asks the service about `q`; resolves with what it found, or undefined when it was dropped or failed (said). */
async function run(state: SearchState, q: string, forward: boolean): Promise<Found[] | undefined> {
  cancel(state);
  const ask = state.search();
  if (!ask) return undefined;
  const controller = (state.pending = new AbortController());
  const centre = state.map.getCenter().wrap();
  try {
    const answer = await ask({ q, focus: { lat: centre.lat, lng: centre.lng }, forward }, controller.signal);
    if (controller.signal.aborted) return undefined;
    const { found: next, status: text } = foundIn(answer, q);
    state.list.show(next, text);
    return next;
  } catch (error) {
    if (controller.signal.aborted || (error as Error)?.name === 'AbortError') return undefined;
    state.list.close();
    const spent = error instanceof EmbedFailure && error.code === 'session_limit_reached';
    const text = t(spent ? 'search.spent' : 'search.failed');
    state.list.setStatus(text);
    state.panel.announce(text);
    return undefined;
  }
}

function confirmFirst(state: SearchState, question: string): Promise<boolean> {
  state.list.close();
  return state.asking.confirm(question);
}

/** A code's cell is previewed unless it is outside the area or far and the visitor says no; resolves whether to preview it. */
async function codeShown(state: SearchState, item: Found, at: LatLng): Promise<boolean> {
  const { input, view, map, panel } = state;
  input.value = item.code!;
  // Outside the area the service would refuse to show the cell: the visitor may see where it is, no more.
  if (item.inArea === false) {
    const go = await confirmFirst(state, t('search.askOutside', { code: item.code! }));
    if (go) view.setView(at, Math.max(map.getZoom(), CODE_ZOOM));
    input.focus();
    if (go) panel.announce(t('search.shownOutside', { code: item.code! }));
    return false;
  }
  const far = item.distance !== undefined && item.distance > FAR_M;
  if (far && !(await confirmFirst(state, t('search.askFar', { code: item.code!, distance: formatDistance(item.distance!) })))) {
    input.focus();
    return false;
  }
  return true;
}

async function pick(state: SearchState, item: Found): Promise<void> {
  const { input, view, map, panel } = state;
  cancel(state);
  state.list.close();
  const at: LatLng = { lat: item.lat, lng: item.lng };
  if (item.kind === 'place') {
    input.value = item.label;
    view.setView(at, PLACE_ZOOM);
    panel.announce(t('search.moved', { place: item.place! }));
    return;
  }
  if (item.kind === 'code' && !(await codeShown(state, item, at))) return;
  view.setView(at, Math.max(map.getZoom(), item.kind === 'code' ? CODE_ZOOM : POINT_ZOOM));
  // The cell is previewed and the panel says how to confirm it: by Enter on the map, where it now is.
  state.doc.getElementById('loc-map')!.focus({ preventScroll: true });
  await state.choice.choose(item.kind === 'code' ? item.code! : at, item.kind === 'code');
}

async function submit(state: SearchState): Promise<void> {
  const q = state.input.value.trim();
  if (q === '') return;
  const point = parseCoordinates(q);
  if (point !== null) return pick(state, pointFound(point));
  const next = await run(state, q, true);
  // A code named exactly, with no doubt about it, is what Enter asked for; anything else is listed.
  if (next?.length === 1 && next[0].exact) await pick(state, next[0]);
}

/** The box's keys: arrows through the list, Enter to choose or submit, Escape to close then empty it. */
function onKey(event: KeyboardEvent, state: SearchState): void {
  const { input, list } = state;
  const open = list.open;
  switch (event.key) {
    case 'ArrowDown':
    case 'ArrowUp':
      if (list.found.length === 0) return;
      event.preventDefault();
      list.move(event.key === 'ArrowDown' ? 1 : -1);
      return;
    case 'Enter':
      event.preventDefault();
      if (open && list.active >= 0) void pick(state, list.found[list.active]);
      else void submit(state);
      return;
    case 'Escape':
      // Handled here: the map's Escape clears the chosen cell, the page's may close a dialog.
      event.preventDefault();
      event.stopPropagation();
      if (open) return list.close();
      cancel(state);
      input.value = '';
      list.clear();
      return;
    case 'Tab':
      list.close();
  }
}
