// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://loc.example/embed/frame/sid_1#nonce=n-1&style=streets&lat=48.8584&lng=2.2945&zoom=16&until=1893456003000"}
/**
 * The whole frame in jsdom: the page the service renders, the real frame script, the handshake with a
 * fake parent, and the API answered by a fake fetch — click-free, by keyboard, as a visitor could.
 */
import { proxy, wrap, type Remote } from 'comlink';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderFramePage } from '../src/server/embed/frame-page.ts';
import type { FrameApi, FrameConfig, FrameInit, HostCallbacks } from '../src/embed/protocol.ts';
import { hashSecret } from '../src/auth/secrets.ts';
import { resolveStyles } from '../src/tiles/styles.ts';
import { CONNECT_GRACE_MS } from './channel.ts';
import { ANNOUNCE_AFTER_MS } from './crosshair.ts';

const T0 = Date.parse('2030-01-01T00:00:00Z');
const TOKEN = 'sid_1.secret';
const RESULT = {
  success: true,
  loc_code: 'FR-0RMB-CQXT',
  latitude: 48.85841,
  longitude: 2.29449,
  address: 'Paris, France',
  country_code: 'FR',
  cell: { north: 48.85842, south: 48.8584, east: 2.29451, west: 2.29447 },
  saved: false,
  share_url: 'https://loc.example/FR-0RMB-CQXT',
};

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

interface Frame {
  parent: { postMessage: ReturnType<typeof vi.fn> };
  api: Remote<FrameApi>;
  host: { [K in keyof HostCallbacks]: ReturnType<typeof vi.fn> };
  fetchMock: ReturnType<typeof vi.fn>;
  /** Answers for `POST /v1/embed/resolve`, in order; a promise holds its request until it settles. */
  resolveAnswers: (Answer | Promise<Answer>)[];
  ports: MessagePort[];
}

const ports: MessagePort[] = [];
/** Answers for `GET /embed/session/{sid}`, in order; then the session's facts. */
const sessionAnswers: Answer[] = [];

/** Renders the frame page, runs the frame script in it, and completes the handshake. */
async function startFrame(init: Partial<FrameInit> = {}, ttlSeconds = 60, refusal?: FrameConfig['refusal']): Promise<Frame> {
  return connectFrame(await openFrame(ttlSeconds, refusal), init);
}

type OpenFrame = Omit<Frame, 'api' | 'host' | 'ports'>;

/** Renders the frame page and runs the frame script in it, up to its hello. */
async function openFrame(ttlSeconds = 60, refusal?: FrameConfig['refusal']): Promise<OpenFrame> {
  const html = renderFramePage({
    apiBase: 'https://loc.example',
    origin: 'https://shop.example',
    sid: 'sid_1',
    expiresAt: new Date(T0 + ttlSeconds * 1000),
    secretHash: hashSecret(TOKEN.split('.')[1]),
    now: new Date(T0),
    styles: resolveStyles({ mode: 'offline' }, 'https://loc.example'),
    refusal,
  });
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  parsed.querySelectorAll('script[src], link').forEach((node) => node.remove());
  document.head.replaceChildren(...parsed.head.childNodes);
  document.body.replaceChildren(...parsed.body.childNodes);

  const parent = { postMessage: vi.fn() };
  Object.defineProperty(window, 'parent', { value: parent, configurable: true });
  const resolveAnswers: (Answer | Promise<Answer>)[] = [];
  const fetchMock = vi.fn(async (url: string) => {
    const answer: Answer = await (url.endsWith('/v1/embed/resolve')
      ? (resolveAnswers.shift() ?? { status: 200, body: RESULT })
      : url.includes('/embed/session/')
        ? (sessionAnswers.shift() ?? { status: 200, body: { origin: 'https://shop.example', expires_at: new Date(Date.now() + 3_600_000).toISOString() } })
        : { status: 404, body: {} });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } });
  });
  vi.stubGlobal('fetch', fetchMock);

  vi.resetModules();
  await import('./main.ts');
  expect(parent.postMessage).toHaveBeenCalledWith({ type: 'loc:hello', nonce: 'n-1' }, 'https://shop.example');
  return { parent, fetchMock, resolveAnswers };
}

/** Answers the frame's hello with a port, as the loader does, and calls init on it. */
async function connectFrame(frame: OpenFrame, init: Partial<FrameInit> = {}): Promise<Frame> {
  const { parent } = frame;
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const connect = new MessageEvent('message', { data: { type: 'loc:connect', nonce: 'n-1' }, origin: 'https://shop.example' });
  Object.defineProperty(connect, 'source', { value: parent });
  Object.defineProperty(connect, 'ports', { value: [port2] });
  window.dispatchEvent(connect);

  const api = wrap<FrameApi>(port1);
  const host = { ready: vi.fn(), select: vi.fn(), preview: vi.fn(), clear: vi.fn(), error: vi.fn(), renew: vi.fn() };
  await api.init(
    { token: TOKEN, style: 'streets', center: { lat: 48.8584, lng: 2.2945 }, zoom: 16, confirm: true, renewable: false, ...init },
    proxy(host),
  );
  return { ...frame, api, host, ports: [port1, port2] };
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const press = (key: string) => $('loc-map').dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
const resolveCalls = (frame: Frame) =>
  frame.fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/v1/embed/resolve')).map(([, init]) => init as RequestInit);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(T0);
  // Every map here moves and zooms at once, as with prefers-reduced-motion: Leaflet times a glide by
  // Date, which these tests fake and then restore, and a glide under way when a test ends (a failed
  // assertion, say) would never end, and hang the run instead of reporting the failure.
  vi.stubGlobal('matchMedia', () => ({ matches: true }));
});

afterEach(() => {
  ports.splice(0).forEach((port) => port.close());
  sessionAnswers.length = 0;
  delete (Object.prototype as Record<string, unknown>).locPolluted;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the map frame', () => {
  it('becomes ready once connected, with the view it shows', async () => {
    const frame = await startFrame({ style: 'biking', center: { lat: 51.5, lng: -0.12 }, zoom: 15 });
    await vi.advanceTimersByTimeAsync(4000);
    await vi.waitFor(() => expect(frame.host.ready).toHaveBeenCalledTimes(1));
    expect(frame.host.ready).toHaveBeenCalledWith({ style: 'biking', center: { lat: 51.5, lng: -0.12 }, zoom: 15, expiresAt: '2030-01-01T00:01:00.000Z', locale: 'en', requiredMessage: 'Choose a location on the map.' });
    // The whole token was checked in the frame, against the page's tokenCheck: no round trip.
    expect(frame.fetchMock.mock.calls.filter(([url]) => String(url).includes('/embed/session/'))).toHaveLength(0);
  });

  it('opens at zoom 0, the whole world, when init asks for it', async () => {
    // init moves the map with setView, the handle's setView's way: both reach zoom 0.
    const frame = await startFrame({ center: { lat: 0, lng: 0 }, zoom: 0 });
    await vi.advanceTimersByTimeAsync(4000);
    await vi.waitFor(() => expect(frame.host.ready).toHaveBeenCalledTimes(1));
    expect(frame.host.ready).toHaveBeenCalledWith(expect.objectContaining({ center: { lat: 0, lng: 0 }, zoom: 0 }));
  });

  it('shows the visitor that the map stopped when the page never connects (its loadTimeout has passed)', async () => {
    const opened = await openFrame();
    // The fragment's deadline (`until`) is T0 + 3 s; after it, a grace for a busy page.
    await vi.advanceTimersByTimeAsync(3000 + CONNECT_GRACE_MS - 1);
    expect($('loc').classList.contains('loc--stopped')).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
    expect($('loc-message').hidden).toBe(false);
    expect($('loc-message').textContent).toBe('The map did not load in time. Reload the page and try again.');
    press('Enter');
    expect(resolveCalls(opened as Frame)).toHaveLength(0);

    // A page whose connect comes even later (too busy to answer at once) hears why there is no onReady.
    const frame = await connectFrame(opened);
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledWith(expect.objectContaining({ code: 'load_timeout', recoverable: false })));
    await vi.advanceTimersByTimeAsync(4000);
    expect(frame.host.ready).not.toHaveBeenCalled();
    expect(frame.host.error).toHaveBeenCalledTimes(1);
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
    // Nor is the token checked: this frame is done.
    expect(frame.fetchMock.mock.calls.filter(([url]) => String(url).includes('/embed/session/'))).toHaveLength(0);
  });

  it('stops before ready when the token’s secret is not the session’s', async () => {
    const frame = await startFrame({ token: 'sid_1.mangled' });
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledWith({ code: 'invalid_session', message: 'The session token is not this session’s.', recoverable: false }));
    await vi.advanceTimersByTimeAsync(4000);
    expect(frame.host.ready).not.toHaveBeenCalled();
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
    press('Enter');
    expect(resolveCalls(frame)).toHaveLength(0);
  });

  it('stops before ready, saying why, when the service refused the session as it wrote the page', async () => {
    const message = 'The API key that created this session is disabled.';
    const frame = await startFrame({}, 60, { code: 'key_inactive', message });
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledWith({ code: 'key_inactive', message, recoverable: false }));
    await vi.advanceTimersByTimeAsync(4000);
    expect(frame.host.ready).not.toHaveBeenCalled();
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
    expect($('loc').textContent).toContain('This map cannot be used right now.');
  });

  it('without Web Crypto, asks the service, and stops before ready when it says the token is not the session’s', async () => {
    vi.stubGlobal('crypto', {});
    sessionAnswers.push({ status: 401, body: { success: false, code: 'invalid_session', message: 'Not this session’s.' } });
    const frame = await startFrame();
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledWith(expect.objectContaining({ code: 'invalid_session', recoverable: false })));
    expect(frame.fetchMock).toHaveBeenCalledWith('https://loc.example/embed/session/sid_1', expect.objectContaining({ headers: { authorization: `Bearer ${TOKEN}` } }));
    await vi.advanceTimersByTimeAsync(4000);
    expect(frame.host.ready).not.toHaveBeenCalled();
  });

  it('becomes ready when the token cannot be checked, and reports nothing until a click tells', async () => {
    vi.stubGlobal('crypto', {});
    sessionAnswers.push({ status: 503, body: { success: false, code: 'service_unavailable', message: 'Down.' } });
    const frame = await startFrame();
    await vi.advanceTimersByTimeAsync(4000);
    await vi.waitFor(() => expect(frame.host.ready).toHaveBeenCalledTimes(1));
    expect(frame.host.error).not.toHaveBeenCalled();
  });

  it('previews the cell under the crosshair, then saves and selects it on confirm', async () => {
    const frame = await startFrame();
    press('Enter');
    await vi.waitFor(() => expect($('loc-code').textContent).toBe('FR-0RMB-CQXT'));
    expect($('loc-address').textContent).toBe('Paris, France');
    expect($('loc-confirm').hidden).toBe(false);
    const [preview] = resolveCalls(frame);
    expect(new Headers(preview.headers).get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(preview.body as string)).toMatchObject({ lat: 48.8584, save: false });
    expect(frame.host.select).not.toHaveBeenCalled();

    frame.resolveAnswers.push({ status: 200, body: { ...RESULT, saved: true } });
    $('loc-confirm').click();
    await vi.waitFor(() => expect(frame.host.select).toHaveBeenCalledTimes(1));
    expect(frame.host.select).toHaveBeenCalledWith({ ...RESULT, saved: true, source: 'visitor' });
    expect(JSON.parse(resolveCalls(frame)[1].body as string)).toEqual({ lat: RESULT.latitude, lng: RESULT.longitude, save: true });
    expect($('loc-confirm').hidden).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect($('loc-live').textContent).toBe('Chosen: FR-0RMB-CQXT, Paris, France.');
  });

  it('gives keyboard focus back to the map after “Use this location”, and still announces the choice', async () => {
    const frame = await startFrame();
    $('loc-map').focus();
    press('Enter');
    await vi.waitFor(() => expect($('loc-panel').dataset.state).toBe('preview'));
    $('loc-confirm').focus();
    frame.resolveAnswers.push({ status: 200, body: { ...RESULT, saved: true } });
    $('loc-confirm').click();
    expect(document.activeElement).toBe($('loc-map'));
    await vi.waitFor(() => expect(frame.host.select).toHaveBeenCalledTimes(1));
    expect(document.activeElement).toBe($('loc-map'));
    await vi.advanceTimersByTimeAsync(100);
    expect($('loc-live').textContent).toBe('Chosen: FR-0RMB-CQXT, Paris, France.');
  });

  it('confirms the previewed cell when Enter is pressed on it again, and previews anew on another cell', async () => {
    const frame = await startFrame();
    // A preview whose cell is not under the crosshair (the map moved meanwhile): Enter previews again.
    const elsewhere = { ...RESULT, loc_code: 'FR-0RMB-CQXV', cell: { ...RESULT.cell, west: 2.29451, east: 2.29455 } };
    frame.resolveAnswers.push({ status: 200, body: elsewhere });
    press('Enter');
    await vi.waitFor(() => expect($('loc-code').textContent).toBe('FR-0RMB-CQXV'));
    press('Enter');
    await vi.waitFor(() => expect($('loc-code').textContent).toBe('FR-0RMB-CQXT'));
    await vi.advanceTimersByTimeAsync(100);
    expect($('loc-live').textContent).toBe('FR-0RMB-CQXT, Paris, France. Press Enter again, or choose “Use this location”, to confirm.');
    frame.resolveAnswers.push({ status: 200, body: { ...RESULT, saved: true } });
    press('Enter');
    await vi.waitFor(() => expect(frame.host.select).toHaveBeenCalledWith({ ...RESULT, saved: true, source: 'visitor' }));
    expect(resolveCalls(frame).map((call) => JSON.parse(call.body as string).save)).toEqual([false, false, true]);
  });

  it('says it is finding the code while another point is looked up, not "Chosen location" of the point before', async () => {
    const frame = await startFrame({ confirm: false });
    frame.resolveAnswers.push({ status: 200, body: { ...RESULT, saved: true } });
    press('Enter');
    await vi.waitFor(() => expect($('loc-panel').dataset.state).toBe('chosen'));
    let answer: (value: Answer) => void = () => {};
    frame.resolveAnswers.push(new Promise((resolve) => (answer = resolve)));
    press('Enter');
    await vi.waitFor(() => expect($('loc-code').textContent).toBe('Finding the code…'));
    expect($('loc-panel').dataset.state).toBe('busy');
    expect($('loc-panel').getAttribute('aria-label')).toBe('Finding the code');
    answer({ status: 200, body: { ...RESULT, saved: true } });
    await vi.waitFor(() => expect($('loc-panel').dataset.state).toBe('chosen'));
    expect($('loc-panel').getAttribute('aria-label')).toBe('Chosen location');
  });

  it('saves and selects at once with confirm: false', async () => {
    const frame = await startFrame({ confirm: false });
    frame.resolveAnswers.push({ status: 200, body: { ...RESULT, saved: true } });
    press(' ');
    await vi.waitFor(() => expect(frame.host.select).toHaveBeenCalledWith({ ...RESULT, saved: true, source: 'visitor' }));
    expect(JSON.parse(resolveCalls(frame)[0].body as string)).toMatchObject({ save: true });
  });

  it('reports a recoverable error, shows it, and keeps working', async () => {
    const frame = await startFrame();
    frame.resolveAnswers.push({ status: 429, body: { success: false, code: 'rate_limited', message: 'Limit reached.' }, headers: { 'retry-after': '600' } });
    press('Enter');
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledTimes(1));
    expect(frame.host.error).toHaveBeenCalledWith({ code: 'rate_limited', message: 'Limit reached.', recoverable: true, retryAfter: 600 });
    expect($('loc-message').hidden).toBe(false);
    expect($('loc-message').textContent).toContain('Try again a little later');
    press('Enter');
    await vi.waitFor(() => expect($('loc-code').textContent).toBe('FR-0RMB-CQXT'));
    expect($('loc-message').hidden).toBe(true);
  });

  it('announces a burst of arrow steps once the keys stop, and nothing once the map has stopped', async () => {
    await startFrame({}, 60);
    // Zoom 16: screen steps.
    for (const key of ['ArrowUp', 'ArrowUp', 'ArrowLeft']) press(key);
    await vi.advanceTimersByTimeAsync(ANNOUNCE_AFTER_MS - 1);
    expect($('loc-live').textContent).toBe('');
    await vi.advanceTimersByTimeAsync(100);
    expect($('loc-live').textContent).toBe('Moved 2 steps north and 1 step west.');

    // A step just before the session ends is not announced after the map stopped, nor one after it.
    await vi.advanceTimersByTimeAsync(60_000 - ANNOUNCE_AFTER_MS - 99 - 200);
    press('ArrowRight');
    await vi.advanceTimersByTimeAsync(200);
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
    press('ArrowDown');
    await vi.advanceTimersByTimeAsync(ANNOUNCE_AFTER_MS + 100);
    expect($('loc-live').textContent).toBe('Moved 2 steps north and 1 step west.');
  });

  it('announces the zooms the visitor asked for (+ and −, the zoom buttons), not those of the page’s setView', async () => {
    const frame = await startFrame();
    await frame.api.setView({ lat: 48.8584, lng: 2.2945 }, 12);
    await vi.advanceTimersByTimeAsync(ANNOUNCE_AFTER_MS + 100);
    expect($('loc-live').textContent).toBe('');
    press('+');
    press('+');
    await vi.advanceTimersByTimeAsync(ANNOUNCE_AFTER_MS + 100);
    expect($('loc-live').textContent).toBe('Zoom 14 of 20.');
    (document.querySelector('.leaflet-control-zoom-out') as HTMLElement).click();
    await vi.advanceTimersByTimeAsync(ANNOUNCE_AFTER_MS + 100);
    expect($('loc-live').textContent).toBe('Zoom 13 of 20.');
  });

  it('stops selecting and reports session_expired at expires_at', async () => {
    const frame = await startFrame({}, 60);
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledWith({ code: 'session_expired', message: 'The session has expired.', recoverable: false }));
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
    expect($('loc-message').textContent).toBe('This map has expired. Reload the page to choose a location.');
    press('Enter');
    expect(resolveCalls(frame)).toHaveLength(0);
  });

  it('stops when the service says the session expired', async () => {
    const frame = await startFrame();
    frame.resolveAnswers.push({ status: 401, body: { success: false, code: 'session_expired', message: 'Expired.' } });
    press('Enter');
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledWith(expect.objectContaining({ code: 'session_expired', recoverable: false })));
    expect(frame.host.error).toHaveBeenCalledTimes(1);
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
  });

  it('renews through the page and retries when the service ends the session early', async () => {
    const frame = await startFrame({ renewable: true });
    frame.host.renew.mockResolvedValue('sid_2.fresh');
    frame.resolveAnswers.push({ status: 401, body: { success: false, code: 'session_expired', message: 'Expired.' } });
    press('Enter');
    await vi.waitFor(() => expect($('loc-code').textContent).toBe('FR-0RMB-CQXT'));
    const calls = resolveCalls(frame);
    expect(calls).toHaveLength(2);
    expect(new Headers(calls[1].headers).get('authorization')).toBe('Bearer sid_2.fresh');
    expect(frame.fetchMock).toHaveBeenCalledWith('https://loc.example/embed/session/sid_2', expect.objectContaining({ headers: { authorization: 'Bearer sid_2.fresh' } }));
    expect(frame.host.error).not.toHaveBeenCalled();
  });

  it('stops and reports session_limit_reached when a session has used its requests and nothing can renew it', async () => {
    const frame = await startFrame();
    frame.resolveAnswers.push({ status: 429, body: { success: false, code: 'session_limit_reached', message: 'Used up.' } });
    press('Enter');
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledWith({ code: 'session_limit_reached', message: 'Used up.', recoverable: false }));
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
    expect($('loc-message').textContent).toBe('This map has looked up as many locations as it may. Reload the page to choose a location.');
    expect(frame.host.renew).not.toHaveBeenCalled();
    press('Enter');
    expect(resolveCalls(frame)).toHaveLength(1);
  });

  it('renews through the page and retries when a session has used its requests', async () => {
    const frame = await startFrame({ renewable: true });
    frame.host.renew.mockResolvedValue('sid_2.fresh');
    frame.resolveAnswers.push({ status: 429, body: { success: false, code: 'session_limit_reached', message: 'Used up.' } });
    press('Enter');
    await vi.waitFor(() => expect($('loc-code').textContent).toBe('FR-0RMB-CQXT'));
    const calls = resolveCalls(frame);
    expect(calls).toHaveLength(2);
    expect(new Headers(calls[1].headers).get('authorization')).toBe('Bearer sid_2.fresh');
    expect(frame.host.error).not.toHaveBeenCalled();
  });

  it('reports session_limit_reached, not an expiry, when renewing a spent session fails', async () => {
    const frame = await startFrame({ renewable: true });
    frame.host.renew.mockRejectedValue(new Error('my session endpoint answered 500'));
    frame.resolveAnswers.push({ status: 429, body: { success: false, code: 'session_limit_reached', message: 'Used up.' } });
    press('Enter');
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledWith(expect.objectContaining({ code: 'session_limit_reached', recoverable: false })));
    expect(frame.host.error).toHaveBeenCalledTimes(1);
    expect($('loc').classList.contains('loc--stopped')).toBe(true);
  });

  /** Runs a session's minute in 5 s steps, letting the page's answers over the real ports arrive between them. */
  const liveThrough = async (ms: number) => {
    for (let t = 0; t < ms; t += 5000) {
      await vi.advanceTimersByTimeAsync(5000);
      for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('says why renewal failed when the session runs out: getSessionToken gave the session response, not its token', async () => {
    const frame = await startFrame({ renewable: true }, 60);
    // fetch(…).then((r) => r.json()) without `.session_token`: the whole response, token and all.
    frame.host.renew.mockResolvedValue({ session_token: 'sid_2.fresh-secret', expires_at: '2030-01-01T00:15:00Z' });
    await liveThrough(60_000);
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledTimes(1));
    const [error] = frame.host.error.mock.calls[0] as [{ code: string; message: string; recoverable: boolean }];
    expect(error).toMatchObject({ code: 'session_expired', recoverable: false });
    expect(error.message).toBe(
      'The session has expired. Renewing it through getSessionToken failed: getSessionToken must resolve with the session_token, "<sid>.<secret>"; ' +
        'it gave an object with a session_token (pass that field).',
    );
    expect(error.message).not.toContain('fresh-secret');
    expect(frame.host.renew.mock.calls.length).toBeGreaterThan(1);
  });

  it('passes on the page’s own renewal failure, and a new session for another origin', async () => {
    const frame = await startFrame({ renewable: true }, 60);
    frame.host.renew.mockRejectedValue(new Error('my session endpoint answered 500'));
    await liveThrough(60_000);
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledTimes(1));
    expect(frame.host.error.mock.calls[0][0].message).toBe('The session has expired. Renewing it through getSessionToken failed: my session endpoint answered 500');

    const other = await startFrame({ renewable: true }, 60);
    other.host.renew.mockResolvedValue('sid_2.fresh');
    sessionAnswers.push(...Array.from({ length: 10 }, () => ({ status: 200, body: { origin: 'http://localhost:3000', expires_at: '2030-01-01T00:15:00.000Z' } })));
    await liveThrough(60_000);
    await vi.waitFor(() => expect(other.host.error).toHaveBeenCalledTimes(1));
    expect(other.host.error.mock.calls[0][0].message).toBe(
      "The session has expired. Renewing it through getSessionToken failed: The new session is for http://localhost:3000, this map's for https://shop.example.",
    );
  });

  it('acts only on init, setStyle and setView: a GET or SET along a prototype path reads and changes nothing', async () => {
    const frame = await startFrame();
    const [port] = frame.ports;
    const replies: string[] = [];
    port.addEventListener('message', ({ data }: MessageEvent<{ id: string }>) => replies.push(data.id));
    port.postMessage({ id: 'pollute', type: 'SET', path: ['setStyle', '__proto__', '__proto__', 'locPolluted'], value: { type: 'RAW', value: 'yes' } });
    port.postMessage({ id: 'peek', type: 'GET', path: ['init', '__proto__', 'constructor', 'name'] });

    // Answered after the forged messages (a port keeps their order), so those have been seen by now.
    await expect(frame.api.setStyle('night' as never)).rejects.toThrow('style must be one of');
    expect(({} as Record<string, unknown>).locPolluted).toBeUndefined();
    expect(replies.filter((id) => id === 'pollute' || id === 'peek')).toEqual([]);

    await frame.api.setStyle('satellite');
    await frame.api.setView({ lat: 51.5, lng: -0.12 }, 17);
    press('Enter');
    await vi.waitFor(() => expect(resolveCalls(frame)).toHaveLength(1));
    const chosen = JSON.parse(resolveCalls(frame)[0].body as string) as { lat: number; lng: number };
    expect(chosen.lat).toBeCloseTo(51.5, 9);
    expect(chosen.lng).toBeCloseTo(-0.12, 9);
  });

  it('refuses a token for another session', async () => {
    const frame = await startFrame({ token: 'sid_other.secret' });
    await vi.waitFor(() => expect(frame.host.error).toHaveBeenCalledWith(expect.objectContaining({ code: 'invalid_session', recoverable: false })));
    press('Enter');
    expect(resolveCalls(frame)).toHaveLength(0);
  });
});
