// @vitest-environment jsdom
/**
 * The search box on the frame's own markup (frame.html) and a real Leaflet map, with the service's
 * search answered when and how each test says: one request per pause in typing, none for coordinates
 * or a single character, a late answer dropped, Enter's forward search, a spent allowance said, and a
 * code always previewed first.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EmbedFailure, type SearchAnswer, type SearchQuery } from './api.ts';
import { CODE_ZOOM, DEBOUNCE_MS, POINT_ZOOM, enableSearch } from './search.ts';
import { t } from './i18n.ts';

interface Asked {
  query: SearchQuery;
  signal: AbortSignal;
  answer(value: SearchAnswer): void;
  fail(error: unknown): void;
}

let map: L.Map;
const $ = (id: string) => document.getElementById(id) as HTMLElement;
const input = () => $('loc-search-input') as HTMLInputElement;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const page = new DOMParser().parseFromString(readFileSync(fileURLToPath(import.meta.resolve('./frame.html')), 'utf8'), 'text/html');
  document.body.replaceChildren(...page.body.childNodes);
  map = L.map($('loc-map'), { center: [45.764, 4.8357], zoom: 12, zoomAnimation: false, fadeAnimation: false });
});

afterEach(() => {
  map.remove();
  vi.useRealTimers();
});

function setUp({ live = true } = {}) {
  const asked: Asked[] = [];
  const search = (query: SearchQuery, signal: AbortSignal) => new Promise<SearchAnswer>((answer, fail) => asked.push({ query, signal, answer, fail }));
  const view = { setView: vi.fn() };
  const choice = { choose: vi.fn(async () => ({ state: 'refused' as const, message: '' })) };
  const panel = { announce: vi.fn() };
  enableSearch({ doc: document, map, view, choice, panel, search: () => (live ? search : undefined) });
  return { asked, view, choice, panel };
}

const type = (text: string) => {
  input().value = text;
  input().dispatchEvent(new Event('input'));
};
const press = (key: string) => input().dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
const options = () => [...document.querySelectorAll('#loc-search-list [role=option]')].map((option) => option.textContent);
const settle = () => vi.advanceTimersByTimeAsync(0);

const LYON: SearchAnswer = {
  kind: 'places',
  normalized: null,
  results: [{ name: 'Lyon', country: 'France', admin: null, latitude: 45.748, longitude: 4.847, distance_m: 1928 }],
};

describe('the search box', () => {
  it('shows itself, and asks once the visitor pauses, from two characters, with the map’s centre', async () => {
    const { asked } = setUp();
    expect($('loc-search').hidden).toBe(false);
    type('l');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS * 2);
    expect(asked).toHaveLength(0);
    type('ly');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS - 1);
    type('lyo');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS - 1);
    type('lyon');
    expect(asked).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(asked.map(({ query }) => query)).toEqual([{ q: 'lyon', focus: { lat: expect.closeTo(45.764, 6), lng: expect.closeTo(4.8357, 6) }, forward: false }]);
  });

  it('reads coordinates itself, asking nothing', async () => {
    const { asked } = setUp();
    type('48.8584, 2.2945');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS * 2);
    expect(asked).toHaveLength(0);
    expect(options()).toEqual([`48.858400, 2.294500${t('search.coordinates')}`]);
    expect(input().getAttribute('aria-expanded')).toBe('true');
  });

  it('drops an answer to text the visitor has typed on from: the request is aborted, its answer never shown', async () => {
    const { asked, panel } = setUp();
    type('ly');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    type('lyo');
    expect(asked[0].signal.aborted).toBe(true);
    asked[0].answer(LYON);
    await settle();
    expect(options()).toEqual([]);
    expect(panel.announce).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    asked[1].answer(LYON);
    await settle();
    expect(options()).toEqual(['LyonFrance · 1.9 km from the map']);
    expect(panel.announce).toHaveBeenCalledWith(t('search.count', { count: 1 }));
  });

  it('Enter with nothing highlighted submits at once, asking the geocoder too; Enter on a highlighted place moves the map', async () => {
    const { asked, view, choice } = setUp();
    type('lyon');
    press('Enter');
    expect(asked.map(({ query }) => query.forward)).toEqual([true]);
    asked[0].answer(LYON);
    await settle();
    press('ArrowDown');
    expect(input().getAttribute('aria-activedescendant')).toBe('loc-search-option-0');
    press('Enter');
    await settle();
    expect(view.setView).toHaveBeenCalledWith({ lat: 45.748, lng: 4.847 }, 13);
    expect(choice.choose).not.toHaveBeenCalled();
    expect(input().value).toBe('Lyon');
  });

  it('previews coordinates and codes, a code first whatever confirm says, the map brought to each', async () => {
    const { asked, view, choice } = setUp();
    type('-33.8568, 151.2153');
    press('Enter');
    await settle();
    expect(view.setView).toHaveBeenLastCalledWith({ lat: -33.8568, lng: 151.2153 }, POINT_ZOOM);
    expect(choice.choose).toHaveBeenLastCalledWith({ lat: -33.8568, lng: 151.2153 }, false);

    type('FR-0RMB-CLY0');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    asked[0].answer({ kind: 'code', normalized: 'FR-0RMB-CLY0', results: [{ loc_code: 'FR-0RMB-CLY0', match: 'exact', latitude: 48.8584, longitude: 2.2945, distance_m: 1900 }] });
    await settle();
    press('ArrowDown');
    press('Enter');
    await settle();
    expect(view.setView).toHaveBeenLastCalledWith({ lat: 48.8584, lng: 2.2945 }, CODE_ZOOM);
    expect(choice.choose).toHaveBeenLastCalledWith('FR-0RMB-CLY0', true);
    expect(document.activeElement).toBe($('loc-map'));
  });

  it('says when the session may search no more, and when the service cannot be reached', async () => {
    const { asked } = setUp();
    type('lyon');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    asked[0].fail(new EmbedFailure('session_limit_reached', 'spent'));
    await settle();
    expect($('loc-search-status').textContent).toBe(t('search.spent'));
    type('lyons');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    asked[1].fail(new EmbedFailure('network', 'down'));
    await settle();
    expect($('loc-search-status').textContent).toBe(t('search.failed'));
  });

  it('asks nothing before the map holds its session', async () => {
    const { asked } = setUp({ live: false });
    type('lyon');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    press('Enter');
    expect(asked).toHaveLength(0);
  });
});
