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

export function enableSearch({ doc, map, view, choice, panel, search }: SearchOptions): void {
  const $ = <T extends HTMLElement>(id: string) => doc.getElementById(id) as T;
  const box = $<HTMLElement>('loc-search');
  const input = $<HTMLInputElement>('loc-search-input');
  const list = $<HTMLUListElement>('loc-search-list');
  const status = $<HTMLParagraphElement>('loc-search-status');
  const ask = $<HTMLElement>('loc-search-ask');
  const askText = $<HTMLParagraphElement>('loc-search-ask-text');
  const yes = $<HTMLButtonElement>('loc-search-yes');
  const no = $<HTMLButtonElement>('loc-search-no');
  box.hidden = false;
  doc.getElementById('loc')?.classList.add('loc--search');

  let found: Found[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: AbortController | undefined;
  let answerAsked: (go: boolean) => void = () => {};

  const setStatus = (text: string) => {
    status.textContent = text;
    status.hidden = text === '';
  };

  const setActive = (index: number) => {
    active = index;
    [...list.children].forEach((option, i) => option.setAttribute('aria-selected', String(i === index)));
    if (index < 0) input.removeAttribute('aria-activedescendant');
    else {
      input.setAttribute('aria-activedescendant', list.children[index].id);
      list.children[index].scrollIntoView?.({ block: 'nearest' });
    }
  };

  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    setActive(-1);
  };

  /** Lists `next` under the box, with `text` over it, and says how many there are. */
  const show = (next: Found[], text: string) => {
    found = next;
    list.replaceChildren(
      ...next.map((item, i) => {
        const option = doc.createElement('li');
        option.id = `loc-search-option-${i}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', 'false');
        option.className = 'loc-search-option';
        const label = doc.createElement('span');
        label.className = 'loc-search-label';
        label.textContent = item.label;
        const detail = doc.createElement('span');
        detail.className = 'loc-search-detail';
        detail.textContent = item.detail;
        option.append(label, detail);
        // Pressing would move focus out of the box before the click lands.
        option.addEventListener('mousedown', (event) => event.preventDefault());
        option.addEventListener('click', () => void pick(item));
        return option;
      }),
    );
    setStatus(text);
    list.hidden = next.length === 0;
    input.setAttribute('aria-expanded', String(next.length > 0));
    setActive(-1);
    panel.announce([text, next.length > 0 ? t('search.count', { count: next.length }) : ''].filter(Boolean).join(' '));
  };

  const cancel = () => {
    clearTimeout(timer);
    pending?.abort();
  };

  /** Asks the service about `q`; resolves with what it found, or undefined when it was dropped or failed (said). */
  const run = async (q: string, forward: boolean): Promise<Found[] | undefined> => {
    cancel();
    const ask = search();
    if (!ask) return undefined;
    const controller = (pending = new AbortController());
    const centre = map.getCenter().wrap();
    try {
      const answer = await ask({ q, focus: { lat: centre.lat, lng: centre.lng }, forward }, controller.signal);
      if (controller.signal.aborted) return undefined;
      const { found: next, status: text } = foundIn(answer, q);
      show(next, text);
      return next;
    } catch (error) {
      if (controller.signal.aborted || (error as Error)?.name === 'AbortError') return undefined;
      close();
      const spent = error instanceof EmbedFailure && error.code === 'session_limit_reached';
      setStatus(t(spent ? 'search.spent' : 'search.failed'));
      panel.announce(status.textContent!);
      return undefined;
    }
  };

  /** Shows `question` under the box and resolves with the visitor's answer; focus goes to "Show it". */
  const confirmFirst = (question: string): Promise<boolean> => {
    close();
    askText.textContent = question;
    ask.hidden = false;
    yes.focus();
    return new Promise((resolve) => {
      answerAsked = (go) => {
        answerAsked = () => {};
        ask.hidden = true;
        resolve(go);
      };
    });
  };

  const pick = async (item: Found): Promise<void> => {
    cancel();
    close();
    const at: LatLng = { lat: item.lat, lng: item.lng };
    if (item.kind === 'place') {
      input.value = item.label;
      view.setView(at, PLACE_ZOOM);
      panel.announce(t('search.moved', { place: item.place! }));
      return;
    }
    if (item.kind === 'code') {
      input.value = item.code!;
      // Outside the area the service would refuse to show the cell: the visitor may see where it is, no more.
      if (item.inArea === false) {
        if (!(await confirmFirst(t('search.askOutside', { code: item.code! })))) return input.focus();
        view.setView(at, Math.max(map.getZoom(), CODE_ZOOM));
        input.focus();
        return panel.announce(t('search.shownOutside', { code: item.code! }));
      }
      if (item.distance !== undefined && item.distance > FAR_M && !(await confirmFirst(t('search.askFar', { code: item.code!, distance: formatDistance(item.distance) })))) {
        return input.focus();
      }
    }
    view.setView(at, Math.max(map.getZoom(), item.kind === 'code' ? CODE_ZOOM : POINT_ZOOM));
    // The cell is previewed and the panel says how to confirm it: by Enter on the map, where it now is.
    $<HTMLElement>('loc-map').focus({ preventScroll: true });
    await choice.choose(item.kind === 'code' ? item.code! : at, item.kind === 'code');
  };

  const submit = async () => {
    const q = input.value.trim();
    if (q === '') return;
    const point = parseCoordinates(q);
    if (point !== null) return pick(pointFound(point));
    const next = await run(q, true);
    // A code named exactly, with no doubt about it, is what Enter asked for; anything else is listed.
    if (next?.length === 1 && next[0].exact) await pick(next[0]);
  };

  input.addEventListener('input', () => {
    cancel();
    answerAsked(false);
    const q = input.value.trim();
    if (q.length < MIN_CHARS) {
      setStatus('');
      return close();
    }
    const point = parseCoordinates(q);
    if (point !== null) return show([pointFound(point)], '');
    timer = setTimeout(() => void run(q, false), DEBOUNCE_MS);
  });

  input.addEventListener('keydown', (event) => {
    const open = !list.hidden;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (found.length === 0) return;
        event.preventDefault();
        if (!open) {
          list.hidden = false;
          input.setAttribute('aria-expanded', 'true');
        }
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive(active < 0 && step < 0 ? found.length - 1 : (active + step + found.length) % found.length);
        return;
      }
      case 'Enter':
        event.preventDefault();
        if (open && active >= 0) void pick(found[active]);
        else void submit();
        return;
      case 'Escape':
        // Handled here: the map's Escape clears the chosen cell, the page's may close a dialog.
        event.preventDefault();
        event.stopPropagation();
        if (open) return close();
        cancel();
        input.value = '';
        found = [];
        setStatus('');
        return;
      case 'Tab':
        close();
    }
  });
  input.addEventListener('blur', close);

  yes.addEventListener('click', () => answerAsked(true));
  no.addEventListener('click', () => answerAsked(false));
  ask.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    answerAsked(false);
  });
}
