// @vitest-environment jsdom
/**
 * The visitor's choice on the frame's own markup (frame.html), with the real panel and the cell's
 * outline on a real Leaflet map; lookups are answered when and how each test says, so that the order
 * of answers, aborts and failures can be set exactly.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LatLng } from '../src/embed/protocol.ts';
import type { LocResolveResult } from '../src/embed/public-types.ts';
import { EmbedFailure } from './api.ts';
import { createChoice, type Choice, type Chooser } from './choice.ts';
import { createPanel } from './panel.ts';
import { createSelection } from './selection.ts';
import { SESSION_ENDED } from './session.ts';

const CELL = { north: 48.85842, south: 48.8584, east: 2.29451, west: 2.29447 };
const INSIDE: LatLng = { lat: 48.85841, lng: 2.29449 };
const ELSEWHERE: LatLng = { lat: 48.85841, lng: 2.29453 };

function result(save: boolean): LocResolveResult {
  return {
    success: true,
    loc_code: 'FR-0RMB-CQXT',
    latitude: INSIDE.lat,
    longitude: INSIDE.lng,
    address: 'Paris, France',
    country_code: 'FR',
    cell: CELL,
    saved: save,
    share_url: 'https://loc.example/FR-0RMB-CQXT',
  };
}

interface Lookup {
  point: LatLng | string;
  save: boolean;
  signal: AbortSignal;
  answer(value: LocResolveResult): void;
  fail(error: unknown): void;
}

let map: L.Map;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const page = new DOMParser().parseFromString(readFileSync(fileURLToPath(import.meta.resolve('./frame.html')), 'utf8'), 'text/html');
  document.body.replaceChildren(...page.body.childNodes);
  map = L.map($('loc-map'), { center: [INSIDE.lat, INSIDE.lng], zoom: 19, zoomAnimation: false, fadeAnimation: false });
});

afterEach(() => {
  map.remove();
  vi.useRealTimers();
});

const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** Why nobody may choose, in these tests. */
const STOPPED = { code: 'session_expired', message: 'The session has expired.', recoverable: false } as const;

/**
 * A choice on the frame's panel and map; `may` says whether anyone may choose (init ran, the map goes
 * on), `settled` when the page heard onReady (or the map stopped).
 */
function setUp({ confirm = true, may = true, settled = Promise.resolve() } = {}) {
  const lookups: Lookup[] = [];
  const host = { select: vi.fn(), preview: vi.fn(), clear: vi.fn() };
  const resolve = (point: LatLng | string, save: boolean, signal: AbortSignal) =>
    new Promise<LocResolveResult>((answer, fail) => lookups.push({ point, save, signal, answer, fail }));
  const chooser: Chooser = { session: { resolve }, confirm, host };
  const panel = createPanel(document);
  const hush = vi.fn();
  const onFailure = vi.fn();
  const choice: Choice = createChoice({
    selection: createSelection(map, { animate: false }),
    panel,
    chooser: () => (may ? chooser : undefined),
    cannotChoose: () => STOPPED,
    settled,
    onFailure,
    hush,
  });
  panel.onConfirm(choice.confirm);
  return { choice, lookups, host, hush, onFailure };
}

/** Lets the answers given reach the choice. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('the visitor’s choice', () => {
  it('previews the point, then saves the previewed cell on “Use this location” and hands it to the page', async () => {
    const { choice, lookups, host } = setUp();
    void choice.choose(INSIDE);
    expect($('loc-panel').dataset.state).toBe('busy');
    lookups[0].answer(result(false));
    await settle();
    expect(lookups[0].save).toBe(false);
    expect($('loc-panel').dataset.state).toBe('preview');
    expect(host.select).not.toHaveBeenCalled();
    expect(host.preview).toHaveBeenCalledWith(result(false));

    $('loc-confirm').click();
    expect(lookups[1]).toMatchObject({ point: INSIDE, save: true });
    lookups[1].answer(result(true));
    await settle();
    expect(host.select).toHaveBeenCalledWith({ ...result(true), source: 'visitor' });
    expect($('loc-panel').dataset.state).toBe('chosen');
    expect($('loc-confirm').hidden).toBe(true);
  });

  it('saves and hands over the first answer with confirm: false', async () => {
    const { choice, lookups, host } = setUp({ confirm: false });
    void choice.choose(INSIDE);
    expect(lookups[0].save).toBe(true);
    lookups[0].answer(result(true));
    await settle();
    expect(host.select).toHaveBeenCalledWith({ ...result(true), source: 'visitor' });
    expect($('loc-panel').dataset.state).toBe('chosen');
  });

  it('counts only the latest lookup: a new one aborts the one under way, whose answer is dropped', async () => {
    const { choice, lookups, onFailure } = setUp();
    void choice.choose(ELSEWHERE);
    void choice.choose(INSIDE);
    expect(lookups[0].signal.aborted).toBe(true);
    expect(lookups[1].signal.aborted).toBe(false);
    lookups[1].answer(result(false));
    lookups[0].answer({ ...result(false), loc_code: 'FR-0RMB-CQXV' });
    await settle();
    expect($('loc-code').textContent).toBe('FR-0RMB-CQXT');
    lookups[0].fail(new EmbedFailure('network', 'Late.'));
    await settle();
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('confirms the previewed cell when a key chooses a point in it, and previews anew elsewhere', async () => {
    const { choice, lookups, host } = setUp();
    choice.chooseByKey(INSIDE);
    lookups[0].answer(result(false));
    await settle();
    choice.chooseByKey(ELSEWHERE);
    expect(lookups[1]).toMatchObject({ point: ELSEWHERE, save: false });
    lookups[1].answer(result(false));
    await settle();
    choice.chooseByKey(INSIDE);
    expect(lookups[2]).toMatchObject({ point: INSIDE, save: true });
    lookups[2].answer(result(true));
    await settle();
    expect(host.select).toHaveBeenCalledTimes(1);
  });

  it('clears what was shown when a lookup fails, and hands the failure on; not an abort, nor a session that ended', async () => {
    const { choice, lookups, onFailure } = setUp();
    void choice.choose(INSIDE);
    lookups[0].answer(result(false));
    await settle();
    void choice.choose(INSIDE);
    const limited = new EmbedFailure('rate_limited', 'Limit reached.');
    lookups[1].fail(limited);
    await settle();
    expect($('loc-panel').hidden).toBe(true);
    expect(onFailure).toHaveBeenCalledWith(limited);
    // With the preview gone, the button's confirm has nothing to save.
    choice.confirm();
    expect(lookups).toHaveLength(2);

    void choice.choose(INSIDE);
    lookups[2].fail(new TypeError('Failed to parse the answer'));
    await settle();
    expect((onFailure.mock.lastCall![0] as EmbedFailure).toJSON()).toEqual({ code: 'internal_error', message: 'TypeError: Failed to parse the answer', recoverable: true });

    void choice.choose(INSIDE);
    lookups[3].fail(SESSION_ENDED);
    await settle();
    void choice.choose(INSIDE);
    lookups[4].fail(new DOMException('The operation was aborted.', 'AbortError'));
    await settle();
    expect(onFailure).toHaveBeenCalledTimes(2);
  });

  it('looks nothing up while nobody may choose, and drops the keys’ pending announcement all the same', async () => {
    const { choice, lookups, hush } = setUp({ may: false });
    void choice.choose(INSIDE);
    choice.chooseByKey(INSIDE);
    expect(lookups).toHaveLength(0);
    expect(hush).toHaveBeenCalledTimes(2);
    expect($('loc-panel').hidden).toBe(true);
  });

  it('says “Choice cleared.” when Escape clears what was shown, and nothing when there was nothing; the page hears onClear then only', async () => {
    const { choice, lookups, hush, host } = setUp();
    choice.clear();
    await vi.advanceTimersByTimeAsync(100);
    expect($('loc-live').textContent).toBe('');
    expect(hush).not.toHaveBeenCalled();
    expect(host.clear).not.toHaveBeenCalled();

    void choice.choose(INSIDE);
    lookups[0].answer(result(false));
    await settle();
    hush.mockClear();
    choice.clear();
    await vi.advanceTimersByTimeAsync(100);
    expect($('loc-live').textContent).toBe('Choice cleared.');
    expect(hush).toHaveBeenCalledTimes(1);
    expect($('loc-panel').hidden).toBe(true);
    expect(host.clear).toHaveBeenCalledTimes(1);

    // A lookup still under way when Escape is pressed is dropped with it.
    void choice.choose(INSIDE);
    choice.clear();
    expect(lookups[1].signal.aborted).toBe(true);
  });
});

describe('the page’s choice', () => {
  it('chooses the cell of a code as a confirmed choice: saved, shown as chosen, brought into view, and handed over with source page', async () => {
    const { choice, lookups, host } = setUp();
    let heard: () => void = () => {};
    host.select.mockReturnValueOnce(new Promise<void>((resolve) => (heard = resolve)));
    map.setView([10, 20], 5);
    const selected = choice.select('fr-0rmb-cqxt');
    await settle();
    expect(lookups[0]).toMatchObject({ point: 'fr-0rmb-cqxt', save: true });
    expect($('loc-panel').dataset.state).toBe('busy');
    lookups[0].answer(result(true));
    await settle();
    expect($('loc-panel').dataset.state).toBe('chosen');
    expect($('loc-code').textContent).toBe('FR-0RMB-CQXT');
    expect(document.querySelector('.loc-cell')).not.toBeNull();
    expect(map.getZoom()).toBe(19);
    expect(map.getCenter().lat).toBeCloseTo(INSIDE.lat, 9);
    expect(map.getCenter().lng).toBeCloseTo(INSIDE.lng, 9);
    expect(host.select).toHaveBeenCalledWith({ ...result(true), source: 'page' });
    await vi.advanceTimersByTimeAsync(100);
    expect($('loc-live').textContent).toBe('Chosen: FR-0RMB-CQXT, Paris, France.');

    // The answer waits for the page to have heard onSelect.
    let answered = false;
    void selected.then(() => (answered = true));
    await settle();
    expect(answered).toBe(false);
    heard();
    await expect(selected).resolves.toEqual({ ...result(true), source: 'page' });
  });

  it('keeps a closer zoom when it brings the cell into view', async () => {
    const { choice, lookups } = setUp();
    map.setView([10, 20], 20);
    const selected = choice.select({ lat: INSIDE.lat, lng: INSIDE.lng });
    await settle();
    expect(lookups[0]).toMatchObject({ point: INSIDE, save: true });
    lookups[0].answer(result(true));
    await selected;
    expect(map.getZoom()).toBe(20);
  });

  it('waits until the page heard onReady, or the map stopped', async () => {
    let ready: () => void = () => {};
    const { choice, lookups } = setUp({ settled: new Promise<void>((resolve) => (ready = resolve)) });
    const selected = choice.select('FR-0RMB-CQXT');
    await settle();
    expect(lookups).toHaveLength(0);
    ready();
    await settle();
    expect(lookups).toHaveLength(1);
    lookups[0].answer(result(true));
    await expect(selected).resolves.toMatchObject({ source: 'page' });
  });

  it('answers a failure the map goes on from to the page alone, and one it cannot to onError too', async () => {
    const { choice, lookups, onFailure } = setUp();
    const malformed = choice.select('nope');
    await settle();
    lookups[0].fail(new EmbedFailure('invalid_code', 'Expected a code like FR-1A2B-3C4D, received "nope".'));
    await expect(malformed).rejects.toEqual({ code: 'invalid_code', message: 'Expected a code like FR-1A2B-3C4D, received "nope".', recoverable: true });
    expect(onFailure).not.toHaveBeenCalled();
    expect($('loc-panel').hidden).toBe(true);
    expect($('loc-message').hidden).toBe(true);

    const spent = choice.select('FR-0RMB-CQXT');
    await settle();
    const limit = new EmbedFailure('session_limit_reached', 'No more calls.');
    lookups[1].fail(limit);
    await expect(spent).rejects.toEqual(limit.toJSON());
    expect(onFailure).toHaveBeenCalledWith(limit);
  });

  it('is dropped, with an AbortError, by a later choice of the visitor’s or by a clear', async () => {
    const { choice, lookups, host } = setUp();
    const first = choice.select('FR-0RMB-CQXT');
    await settle();
    void choice.choose(ELSEWHERE);
    expect(lookups[0].signal.aborted).toBe(true);
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });

    const second = choice.select('FR-0RMB-CQXT');
    await settle();
    await choice.clearByPage();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect(host.select).not.toHaveBeenCalled();
  });

  it('is refused with why while nobody may choose, and a target of neither shape with a TypeError', async () => {
    await expect(setUp({ may: false }).choice.select('FR-0RMB-CQXT')).rejects.toEqual(STOPPED);
    const { choice, lookups } = setUp();
    await expect(choice.select(42)).rejects.toThrow(TypeError);
    expect(lookups).toHaveLength(0);
  });

  it('clears silently: the outline and the panel go, nothing is announced, nothing reaches the page', async () => {
    const { choice, lookups, host } = setUp();
    void choice.choose(INSIDE);
    lookups[0].answer(result(false));
    await settle();
    await vi.advanceTimersByTimeAsync(100);
    await choice.clearByPage();
    await vi.advanceTimersByTimeAsync(100);
    expect($('loc-panel').hidden).toBe(true);
    expect(document.querySelector('.loc-cell')).toBeNull();
    expect($('loc-live').textContent).not.toBe('Choice cleared.');
    expect(host.select).not.toHaveBeenCalled();
    expect(host.clear).not.toHaveBeenCalled();
  });
});

describe('the map opened on a value', () => {
  it('looks the code up unsaved and shows its cell as chosen, without onSelect or onPreview', async () => {
    const { choice, lookups, host } = setUp();
    const opened = choice.open('FR-0RMB-CQXT');
    expect(lookups[0]).toMatchObject({ point: 'FR-0RMB-CQXT', save: false });
    lookups[0].answer(result(false));
    await expect(opened).resolves.toEqual(result(false));
    expect($('loc-panel').dataset.state).toBe('chosen');
    expect($('loc-confirm').hidden).toBe(true);
    expect(document.querySelector('.loc-cell')).not.toBeNull();
    expect(host.select).not.toHaveBeenCalled();
    expect(host.preview).not.toHaveBeenCalled();
  });

  it('hands a failure on as the visitor’s are, and opens nothing', async () => {
    const { choice, lookups, onFailure } = setUp();
    const opened = choice.open('FR-0RMB-CQXX');
    const failure = new EmbedFailure('code_not_found', 'No location has this code.');
    lookups[0].fail(failure);
    await expect(opened).resolves.toBeUndefined();
    expect(onFailure).toHaveBeenCalledWith(failure);
    expect($('loc-panel').hidden).toBe(true);
  });

  it('opens nothing once nobody may choose', async () => {
    const { choice, lookups } = setUp({ may: false });
    await expect(choice.open('FR-0RMB-CQXT')).resolves.toBeUndefined();
    expect(lookups).toHaveLength(0);
  });
});
