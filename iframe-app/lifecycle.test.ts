// @vitest-environment jsdom
/**
 * The frame's life on its own markup (frame.html), with the real panel, the real view on a Leaflet map
 * and a token the frame checks itself; the page's callbacks are recorded. The whole frame, handshake
 * and API included, is main.test.ts's.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../src/auth/secrets.ts';
import type { FrameInit, LocResolveResult } from '../src/embed/protocol.ts';
import { frameConfig } from '../src/server/embed/frame-page.ts';
import { resolveStyles } from '../src/tiles/styles.ts';
import { EmbedFailure } from './api.ts';
import { gridColumns } from './grid-layer.ts';
import { createLifecycle, type Lifecycle } from './lifecycle.ts';
import { createPanel } from './panel.ts';
import { createView } from './view.ts';

const T0 = Date.parse('2030-01-01T00:00:00Z');
const TOKEN = 'sid_1.secret';
const INIT: FrameInit = { token: TOKEN, style: 'streets', center: { lat: 48.8584, lng: 2.2945 }, zoom: 16, confirm: true, renewable: false };

let map: L.Map;
let frame: Lifecycle;
let onStop: ReturnType<typeof vi.fn<() => void>>;
const host = { ready: vi.fn(), select: vi.fn(), preview: vi.fn(), clear: vi.fn(), error: vi.fn(), renew: vi.fn() };
const open = vi.fn<(code: string) => Promise<LocResolveResult | undefined>>();
const $ = (id: string) => document.getElementById(id) as HTMLElement;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(T0);
  const page = new DOMParser().parseFromString(readFileSync(fileURLToPath(import.meta.resolve('./frame.html')), 'utf8'), 'text/html');
  document.body.replaceChildren(...page.body.childNodes);
  map = L.map($('loc-map'), { center: [0, 0], zoom: 2, zoomAnimation: false, fadeAnimation: false });
  const styles = resolveStyles({ mode: 'offline' }, 'https://loc.example');
  const view = createView({ map, motion: { animate: false }, direction: 'ltr' }, styles, 'streets', gridColumns(() => Promise.reject(new Error('no grid in this test'))));
  const config = frameConfig({
    apiBase: 'https://loc.example',
    origin: 'https://shop.example',
    sid: 'sid_1',
    expiresAt: new Date(T0 + 60_000),
    secretHash: hashSecret('secret'),
    styles,
    now: new Date(T0),
  });
  onStop = vi.fn<() => void>();
  open.mockReset();
  frame = createLifecycle({ config, skew: 0, view, panel: createPanel(document), root: $('loc'), onStop, open });
});

afterEach(() => {
  frame.stop(new EmbedFailure('internal_error', 'Test over.'));
  map.remove();
  Object.values(host).forEach((callback) => callback.mockReset());
  vi.useRealTimers();
});

const init = (overrides: Partial<FrameInit> = {}) => frame.init({ ...INIT, ...overrides }, host as never);

describe('the frame’s life', () => {
  it('lets the visitor choose from init on, with what init handed over, until the map stops', () => {
    expect(frame.live()).toBeUndefined();
    init({ confirm: false });
    expect(frame.live()).toMatchObject({ confirm: false, host });
    frame.stop(new EmbedFailure('load_timeout', 'No connect came.'));
    expect(frame.live()).toBeUndefined();
    expect(onStop).toHaveBeenCalledTimes(1);
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
    expect($('loc-message').textContent).toBe('The map did not load in time. Reload the page and try again.');
    expect(frame.cannotChoose()).toEqual({ code: 'load_timeout', message: 'No connect came.', recoverable: false });
  });

  it('becomes ready with the view init asked for, at the latest 4 s after init when no tile loads', async () => {
    init({ style: 'biking', center: { lat: 51.5, lng: -0.12 }, zoom: 15 });
    await vi.advanceTimersByTimeAsync(3999);
    expect(host.ready).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    // The language it speaks, English here, and the field's message in it.
    expect(host.ready).toHaveBeenCalledWith({ style: 'biking', center: { lat: 51.5, lng: -0.12 }, zoom: 15, expiresAt: '2030-01-01T00:01:00.000Z', locale: 'en', requiredMessage: 'Choose a location on the map.' });
  });

  it('opens on the value before onReady, which carries it, however long the lookup takes', async () => {
    const opened = { loc_code: 'FR-0RMB-CQXT' } as LocResolveResult;
    let answer!: (result: LocResolveResult | undefined) => void;
    open.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    init({ value: 'FR-0RMB-CQXT' });
    expect(open).toHaveBeenCalledWith('FR-0RMB-CQXT');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(host.ready).not.toHaveBeenCalled();
    answer(opened);
    await vi.advanceTimersByTimeAsync(0);
    expect(host.ready).toHaveBeenCalledWith(expect.objectContaining({ value: opened }));
  });

  it('asks for no value without one, and says none when it could not be opened', async () => {
    init();
    expect(open).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(4000);
    expect(host.ready.mock.calls[0][0]).not.toHaveProperty('value');
  });

  it('marks its root for tests: loading until the page has heard onReady, ready then, stopped once the map stopped', async () => {
    let heard!: () => void;
    host.ready.mockReturnValueOnce(new Promise<void>((resolve) => (heard = resolve)));
    expect($('loc').dataset.state).toBe('loading');
    init();
    await vi.advanceTimersByTimeAsync(4000);
    expect(host.ready).toHaveBeenCalledTimes(1);
    expect($('loc').dataset.state).toBe('loading');
    heard();
    await frame.settled;
    expect($('loc').dataset.state).toBe('ready');
    await vi.advanceTimersByTimeAsync(60_000);
    expect($('loc').dataset.state).toBe('stopped');
  });

  it('tells the visitor and the page of a failure the map goes on from, with the wait the service asked for', () => {
    init();
    frame.report(new EmbedFailure('rate_limited', 'Limit reached.', 600));
    expect($('loc-message').textContent).toBe('Too many locations were looked up just now. Try again a little later. (about 10 min)');
    expect(host.error).toHaveBeenCalledWith({ code: 'rate_limited', message: 'Limit reached.', recoverable: true, retryAfter: 600 });
    expect(frame.isStopped()).toBe(false);
    expect(frame.live()).toBeDefined();
  });

  it('tells the visitor that a point outside the session’s area is refused, and lets them choose another', () => {
    init();
    frame.report(new EmbedFailure('outside_session_area', 'The point is in Germany (DE), not in the countries this embed session allows: it allows points in FR.'));
    expect($('loc-message').textContent).toBe('This location is outside the area this site accepts. Choose a point inside it.');
    expect(host.error).toHaveBeenCalledWith({
      code: 'outside_session_area', message: 'The point is in Germany (DE), not in the countries this embed session allows: it allows points in FR.', recoverable: true,
    });
    expect(frame.isStopped()).toBe(false);
  });

  it('stops at the first failure it cannot go on from, and says nothing more: not a later failure, not the expiry', async () => {
    init();
    frame.report(new EmbedFailure('key_inactive', 'The key is disabled.'));
    expect(frame.isStopped()).toBe(true);
    expect($('loc-message').textContent).toBe('This map cannot be used right now.');
    frame.report(new EmbedFailure('network', 'Unreachable.'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(host.error).toHaveBeenCalledTimes(1);
    expect(host.ready).not.toHaveBeenCalled();
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it('ends at the session’s expiry: session_expired to the page, the visitor told, nothing more to choose', async () => {
    init();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(frame.live()).toBeDefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(host.error).toHaveBeenCalledWith({ code: 'session_expired', message: 'The session has expired.', recoverable: false });
    expect($('loc-message').textContent).toBe('This map has expired. Reload the page to choose a location.');
    expect(frame.live()).toBeUndefined();
  });

  it('takes the first init only', async () => {
    init();
    init({ token: 'sid_other.secret' });
    await vi.advanceTimersByTimeAsync(4000);
    expect(host.error).not.toHaveBeenCalled();
    expect(host.ready).toHaveBeenCalledTimes(1);
  });

  it('is settled for the page’s select once the page has heard onReady, or once the map stopped', async () => {
    let settled = false;
    void frame.settled.then(() => (settled = true));
    let heard: () => void = () => {};
    host.ready.mockReturnValueOnce(new Promise<void>((resolve) => (heard = resolve)));
    init();
    await vi.advanceTimersByTimeAsync(4000);
    expect(host.ready).toHaveBeenCalledTimes(1);
    expect(settled).toBe(false);
    heard();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('tells the page’s select why nothing may be chosen: what stopped the map, or the session’s end', async () => {
    expect(frame.cannotChoose()).toMatchObject({ code: 'internal_error', recoverable: true });
    init();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(frame.cannotChoose()).toEqual({ code: 'session_expired', message: 'The session has expired.', recoverable: false });
    let settled = false;
    await frame.settled.then(() => (settled = true));
    expect(settled).toBe(true);
  });
});
