// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://shop.example/checkout"}
import { expose } from 'comlink';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SANDBOX, createLoc } from './loader.ts';
import type { FrameApi, FrameInit, HostCallbacks } from './protocol.ts';
import type { LocGlobal, LocMountOptions } from './public-types.ts';
import { fragment, hello as helloFrom, spyOnFrame } from '../../test/support/loader-page.ts';

const SERVICE = 'https://loc.example';
const TOKEN = 'sid_123.s3cr3t-v4lue';
let LOC: LocGlobal;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  document.body.innerHTML = '<div id="map"></div><div id="other"></div>';
  fetchMock = vi.fn(() => new Promise(() => {}));
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('reportError', vi.fn());
  LOC = createLoc(`${SERVICE}/embed/loc-embed.js`, 'test');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const mount = (options: Partial<LocMountOptions> = {}, target: string | Element = '#map') =>
  LOC.mount(target, { sessionToken: TOKEN, ...options } as LocMountOptions);

/** A hello as the frame would send it; any field can be forged. */
const hello = (iframe: HTMLIFrameElement, forged: Parameters<typeof helloFrom>[2] = {}) => helloFrom(iframe, SERVICE, forged);

describe('LOC.mount options', () => {
  const invalid: [string, Record<string, unknown>, RegExp][] = [
    ['no sessionToken', { sessionToken: undefined }, /options\.sessionToken must be the session_token from POST \/v1\/embed\/sessions, "<sid>\.<secret>"; received undefined\./],
    ['a numeric token', { sessionToken: 42 }, /options\.sessionToken must be .*; received 42\./],
    ['a token without a dot', { sessionToken: 'abcdef' }, /received a string of 6 characters without a "\."\./],
    ['a token with an empty secret', { sessionToken: 'abc.' }, /received a string of 4 characters\./],
    ['a numeric height', { height: 400 }, /options\.height must be a CSS length such as "400px"; received 400\./],
    ['an empty height', { height: ' ' }, /options\.height must be a CSS length .*; received " "\./],
    ['a centre out of range', { center: { lat: 95, lng: 0 } }, /options\.center must be \{ lat, lng \} or \[lat, lng\] with lat from -90 to 90 and lng from -180 to 180; received \{"lat":95,"lng":0\}\./],
    ['a centre of three numbers', { center: [1, 2, 3] }, /options\.center must be .*; received \[1,2,3\]\./],
    ['a centre with NaN', { center: { lat: Number.NaN, lng: 2 } }, /received \{"lat":"NaN","lng":2\}\./],
    ['a centre as a string', { center: '48.8,2.3' }, /options\.center must be .*; received "48\.8,2\.3"\./],
    ['zoom 21', { zoom: 21 }, /options\.zoom must be an integer from 0 to 20; received 21\./],
    ['a fractional zoom', { zoom: 1.5 }, /options\.zoom must be an integer from 0 to 20; received 1\.5\./],
    ['zoom as a string', { zoom: '12' }, /options\.zoom must be an integer from 0 to 20; received "12"\./],
    ['an unknown style', { style: 'night' }, /options\.style must be one of "streets", "satellite", "traffic", "biking"; received "night"\./],
    ['confirm as a string', { confirm: 'yes' }, /options\.confirm must be true or false; received "yes"\./],
    ['a tiny loadTimeout', { loadTimeout: 10 }, /options\.loadTimeout must be milliseconds from 1000 to 300000; received 10\./],
    ['an empty title', { title: '' }, /options\.title must be a non-empty string; received ""\./],
    ['search as a string', { search: 'no' }, /options\.search must be true or false; received "no"\./],
    ['a value that is no string', { value: 42 }, /options\.value must be a loc code such as "FR-0RMB-CLY0"; received 42\./],
    ['an empty value', { value: ' ' }, /options\.value must be a loc code .*; received " "\./],
    ['onPreview not a function', { onPreview: true }, /options\.onPreview must be a function; received true\./],
    ['onClear not a function', { onClear: 'clear' }, /options\.onClear must be a function; received a string of 5 characters\./],
    ['onSelect not a function', { onSelect: 'handler' }, /options\.onSelect must be a function; received a string of 7 characters\./],
    ['getSessionToken not a function', { getSessionToken: {} }, /options\.getSessionToken must be a function; received an object\./],
    ['a locale that is not a tag', { locale: 'français' }, /options\.locale must be a BCP 47 language tag such as "fr" or "pt-BR"; received "français"\./],
    ['a locale with an underscore', { locale: 'pt_BR' }, /options\.locale must be a BCP 47 language tag .*; received "pt_BR"\./],
    ['a locale as an array', { locale: ['fr'] }, /options\.locale must be .*; received \["fr"\]\./],
    ['an appearance as a string', { appearance: 'dark' }, /options\.appearance must be \{ theme\?, variables\? \}; received "dark"\./],
    ['an unknown theme', { appearance: { theme: 'night' } }, /options\.appearance\.theme must be one of "light", "dark", "auto"; received "night"\./],
    ['an unknown appearance key', { appearance: { colors: {} } }, /options\.appearance\.colors must be theme or variables; received an unknown key\./],
    ['an unknown variable', { appearance: { variables: { colorAccent: 'red' } } }, /options\.appearance\.variables\.colorAccent must be one of colorPrimary, .*; received an unknown variable\./],
    ['a numeric variable', { appearance: { variables: { borderRadius: 4 } } }, /options\.appearance\.variables\.borderRadius must be a string of at most 200 characters; received 4\./],
    ['a misspelt callback', { onselect: () => {} }, /options\.onselect must be one of the known options \(sessionToken, onSelect, .*\); received an unknown option\./],
  ];

  it.each(invalid)('throw at once on %s, showing what was expected and received', (_, options, message) => {
    expect(() => mount(options as Partial<LocMountOptions>)).toThrow(TypeError);
    expect(() => mount(options as Partial<LocMountOptions>)).toThrow(message);
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  it('throw when options are missing or not an object', () => {
    expect(() => LOC.mount('#map', undefined as unknown as LocMountOptions)).toThrow('LOC.mount: options must be an object with at least sessionToken; received undefined.');
    expect(() => LOC.mount('#map', 'sid.secret' as unknown as LocMountOptions)).toThrow(/options must be an object .*; received a string of 10 characters\./);
  });

  it('never echo a session token, which is a credential, whatever holds it', () => {
    const secret = 'averysecretvaluewithoutadot';
    const token = `sid_123.${secret}`;
    const cases: [unknown, RegExp][] = [
      [secret, /a string of 27 characters/],
      [[token], /received an array\./],
      [{ token }, /received an object\./],
      [{ session_token: token, expires_at: '2026-01-01T00:00:00Z' }, /received an object with a session_token \(pass that field\)\./],
    ];
    for (const [sessionToken, message] of cases) {
      expect(() => mount({ sessionToken } as Partial<LocMountOptions>)).toThrow(message);
      expect(() => mount({ sessionToken } as Partial<LocMountOptions>)).not.toThrow(new RegExp(secret.slice(0, 4)));
    }
    expect(() => LOC.mount('#map', token as unknown as LocMountOptions)).not.toThrow(new RegExp(secret.slice(0, 4)));
    // The token passed where a callback goes: `getSessionToken: session.session_token`.
    for (const key of ['getSessionToken', 'onSelect', 'onError', 'onReady']) {
      expect(() => mount({ [key]: token } as Partial<LocMountOptions>)).toThrow(`options.${key} must be a function; received a string of ${token.length} characters.`);
    }
    expect(() => mount({ getSessionToken: { session_token: token } } as unknown as Partial<LocMountOptions>)).not.toThrow(new RegExp(secret.slice(0, 4)));
  });

  it('accept both point shapes and fill in the defaults', () => {
    const a = mount({ center: [48.85, 2.35], zoom: 18, style: 'biking' });
    expect(Object.fromEntries(fragment(a.iframe))).toMatchObject({ style: 'biking', lat: '48.85', lng: '2.35', zoom: '18' });
    const b = mount({ center: { lat: -33.9, lng: 151.2 } });
    expect(Object.fromEntries(fragment(b.iframe))).toMatchObject({ style: 'streets', lat: '-33.9', lng: '151.2', zoom: '2' });
    expect(b.iframe.style.height).toBe('400px');
  });

  it('put the locale in the fragment only when given, the page’s language always, and the appearance as JSON', () => {
    document.documentElement.lang = 'de-AT';
    try {
      const given = fragment(mount({ locale: 'pt-BR', appearance: { theme: 'dark', variables: { colorPrimary: '#0b57d0', colorText: undefined } } }).iframe);
      expect(given.get('locale')).toBe('pt-BR');
      expect(given.get('pageLocale')).toBe('de-AT');
      expect(JSON.parse(given.get('appearance')!)).toEqual({ theme: 'dark', variables: { colorPrimary: '#0b57d0' } });
      const defaults = fragment(mount().iframe);
      expect(defaults.has('locale')).toBe(false);
      expect(JSON.parse(defaults.get('appearance')!)).toEqual({ theme: 'light' });
      // Without <html lang>, the browser's language.
      document.documentElement.lang = '';
      expect(fragment(mount().iframe).get('pageLocale')).toBe(navigator.language);
    } finally {
      document.documentElement.lang = '';
    }
  });
});

describe('LOC.mount target', () => {
  it('throws when the selector matches nothing', () => {
    expect(() => mount({}, '#nowhere')).toThrow('LOC.mount: no element matches the selector "#nowhere".');
  });

  it('throws on a selector that is not CSS, and on a target that is not an element', () => {
    expect(() => mount({}, '##')).toThrow('LOC.mount: the selector must be valid CSS; received "##".');
    expect(() => mount({}, 42 as unknown as string)).toThrow('LOC.mount: the target must be a CSS selector or an element; received 42.');
  });

  it('says null, not "object", for the element a lookup did not find', () => {
    // getElementById before the element exists, or a React ref before it is attached.
    expect(() => mount({}, null as unknown as string)).toThrow('LOC.mount: the target must be a CSS selector or an element; received null.');
    expect(() => mount({}, { current: null } as unknown as string)).toThrow('; received an object.');
  });

  it('takes an element as well as a selector', () => {
    const element = document.getElementById('other')!;
    expect(mount({}, element).iframe.parentElement).toBe(element);
  });
});

describe('the frame', () => {
  it('is a sandboxed, titled iframe on the session frame URL, without the token', () => {
    const { iframe } = mount({ height: '60vh', title: 'Pick the delivery spot' });
    expect(iframe.parentElement?.id).toBe('map');
    expect(iframe.src.startsWith(`${SERVICE}/embed/frame/sid_123#`)).toBe(true);
    expect(iframe.src).not.toContain('s3cr3t');
    expect(iframe.getAttribute('sandbox')).toBe(SANDBOX);
    expect(iframe.getAttribute('sandbox')).not.toMatch(/allow-top-navigation|allow-forms|allow-modals/);
    expect(iframe.getAttribute('allow')).toBe('geolocation; clipboard-write');
    expect(iframe.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(iframe.title).toBe('Pick the delivery spot');
    expect(iframe.style.height).toBe('60vh');
    expect(fragment(iframe).get('nonce')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is on the service the script came from, by either script path, under a path prefix too', () => {
    for (const src of [`${SERVICE}/embed/v1/loc-embed.js`, `${SERVICE}/maps/embed/v1/loc-embed.js?x=1`, `${SERVICE}/maps/embed/loc-embed.js#y`]) {
      const base = src.replace(/\/embed\/.*$/, '');
      const { iframe } = createLoc(src, 'test').mount('#other', { sessionToken: TOKEN });
      expect(iframe.src.startsWith(`${base}/embed/frame/sid_123#`), src).toBe(true);
    }
  });

  it('gets a fresh nonce per mount', () => {
    const a = fragment(mount().iframe).get('nonce');
    const b = fragment(mount().iframe).get('nonce');
    expect(a).not.toBe(b);
  });

  it('is replaced, never duplicated, when mounting again into the same element', () => {
    const first = mount();
    const second = mount({ style: 'satellite' });
    expect(document.querySelectorAll('#map iframe')).toHaveLength(1);
    expect(first.iframe.isConnected).toBe(false);
    expect(document.querySelector('#map iframe')).toBe(second.iframe);
    mount({}, '#other');
    expect(document.querySelectorAll('iframe')).toHaveLength(2);
  });

  it('keeps the page content of the target', () => {
    document.getElementById('map')!.innerHTML = '<p>Choose a delivery spot</p>';
    mount();
    expect(document.querySelector('#map p')).not.toBeNull();
  });
});

describe('destroy()', () => {
  it('removes the frame and every listener, and is safe to call twice', async () => {
    const added: EventListenerOrEventListenerObject[] = [];
    const removed: EventListenerOrEventListenerObject[] = [];
    const add = window.addEventListener.bind(window);
    const remove = window.removeEventListener.bind(window);
    vi.spyOn(window, 'addEventListener').mockImplementation((type, listener, options) => {
      if (type === 'message') added.push(listener);
      add(type, listener, options);
    });
    vi.spyOn(window, 'removeEventListener').mockImplementation((type, listener, options) => {
      if (type === 'message') removed.push(listener);
      remove(type, listener, options);
    });
    vi.useFakeTimers();
    let answerCheck: (response: Response) => void = () => {};
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answerCheck = resolve)));
    const onError = vi.fn();
    const handle = mount({ onError });
    handle.destroy();
    handle.destroy();
    expect(handle.iframe.isConnected).toBe(false);
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    expect(added.length).toBeGreaterThan(0);
    expect(removed).toEqual(added);
    // The session check's answer, the timeout: nothing reaches the page after destroy().
    answerCheck(new Response(JSON.stringify({ origin: 'https://other.example', expires_at: '2030-01-01T00:00:00Z' })));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onError).not.toHaveBeenCalled();
  });

  it('leaves a later mount in the same element alone', () => {
    const first = mount();
    const second = mount();
    first.destroy();
    expect(second.iframe.isConnected).toBe(true);
  });

  it('turns setStyle and setView into no-ops', () => {
    const handle = mount();
    handle.destroy();
    expect(() => handle.setStyle('satellite')).not.toThrow();
    expect(() => handle.setView([1, 2], 3)).not.toThrow();
  });
});

describe('the handshake', () => {
  it('answers the frame’s hello with a private port, aimed at the service origin only', () => {
    const { iframe } = mount();
    const post = spyOnFrame(iframe);
    hello(iframe);
    expect(post).toHaveBeenCalledTimes(1);
    const [message, targetOrigin, transfer] = post.mock.calls[0];
    expect(message).toEqual({ type: 'loc:connect', nonce: fragment(iframe).get('nonce') });
    expect(targetOrigin).toBe(SERVICE);
    expect(transfer).toHaveLength(1);
    expect(transfer[0]).toBeInstanceOf(MessagePort);
    (transfer[0] as MessagePort).close();
  });

  it.each([
    ['another window', { source: window }],
    ['no window', { source: null }],
    ['another origin', { origin: 'https://evil.example' }],
    ['the service origin on another port', { origin: 'https://loc.example:8443' }],
    ['a wrong nonce', { nonce: 'guessed' }],
    ['another message type', { type: 'loc:connect' }],
  ])('ignores a forged hello from %s', (_, forged) => {
    const { iframe } = mount();
    const post = spyOnFrame(iframe);
    hello(iframe, forged);
    expect(post).not.toHaveBeenCalled();
  });

  it('ignores the hello of another mount’s frame', () => {
    const a = mount();
    const b = mount({}, '#other');
    const postA = spyOnFrame(a.iframe);
    hello(a.iframe, { source: b.iframe.contentWindow });
    hello(a.iframe, { nonce: fragment(b.iframe).get('nonce')! });
    expect(postA).not.toHaveBeenCalled();
  });

  it('hands the port over once', () => {
    const { iframe } = mount();
    const post = spyOnFrame(iframe);
    hello(iframe);
    hello(iframe);
    expect(post).toHaveBeenCalledTimes(1);
    (post.mock.calls[0][2][0] as MessagePort).close();
  });

  it('reports load_timeout when the frame never says hello', () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    mount({ onError, loadTimeout: 5000 });
    vi.advanceTimersByTime(4999);
    expect(onError).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onError).toHaveBeenCalledWith({ code: 'load_timeout', message: 'The map frame did not answer within 5000 ms.', recoverable: false });
  });

  it('lets no late frame in after the timeout', () => {
    vi.useFakeTimers();
    const { iframe } = mount({ loadTimeout: 5000 });
    const post = spyOnFrame(iframe);
    vi.advanceTimersByTime(5000);
    hello(iframe);
    expect(post).not.toHaveBeenCalled();
  });

  it('reports no timeout once the frame said hello', () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    const { iframe } = mount({ onError });
    const post = spyOnFrame(iframe);
    hello(iframe);
    vi.advanceTimersByTime(60_000);
    expect(onError).not.toHaveBeenCalled();
    (post.mock.calls[0][2][0] as MessagePort).close();
  });
});

describe('the channel, against the real comlink on the frame side', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => cleanup.splice(0).forEach((run) => run()));

  /** Mounts, completes the handshake and exposes a fake frame API with comlink, as the frame does. */
  async function connected(options: Partial<LocMountOptions> = {}) {
    const calls = { setStyle: vi.fn(), setView: vi.fn(), select: vi.fn(), clear: vi.fn() };
    let initialise: (call: [FrameInit, HostCallbacks]) => void = () => {};
    const initialised = new Promise<[FrameInit, HostCallbacks]>((resolve) => (initialise = resolve));
    const api: FrameApi = { init: (init, host) => initialise([init, host]), ...calls };
    const handle = mount(options);
    const post = spyOnFrame(handle.iframe);
    hello(handle.iframe);
    expose(api, post.mock.calls[0][2][0] as MessagePort);
    cleanup.push(() => handle.destroy());
    const [init, host] = await initialised;
    return { init, host, calls, handle };
  }

  it('hands over the token and the options’ view over the port, never in a URL', async () => {
    const { init } = await connected({ center: [1, 2], zoom: 5, style: 'traffic', confirm: false });
    expect(init).toEqual({ token: TOKEN, style: 'traffic', center: { lat: 1, lng: 2 }, zoom: 5, confirm: false, renewable: false, value: undefined });
  });

  it('hands over the value to open on, and says in the fragment whether the search box shows', async () => {
    const { init, handle } = await connected({ value: 'FR-0RMB-CLY0', search: false });
    expect(init.value).toBe('FR-0RMB-CLY0');
    expect(new URLSearchParams(new URL(handle.iframe.src).hash.slice(1)).get('search')).toBe('false');
  });

  it('turns the frame’s calls into the integrator’s callbacks', async () => {
    const onReady = vi.fn();
    const onSelect = vi.fn();
    const onError = vi.fn();
    const { host } = await connected({ onReady, onSelect, onError });
    const info = { style: 'streets' as const, center: { lat: 1, lng: 2 }, zoom: 3, expiresAt: '2030-01-01T00:00:00.000Z', locale: 'en', requiredMessage: 'Choose a location on the map.' };
    await host.ready(info);
    expect(onReady).toHaveBeenCalledWith(info);
    const result = { success: true as const, loc_code: 'FR-0RMB-CQXT', latitude: 1, longitude: 2, address: 'Paris', country_code: 'FR', cell: { north: 1, south: 0, east: 1, west: 0 }, saved: true, share_url: 'https://loc.example/FR-0RMB-CQXT', source: 'visitor' as const };
    await host.select(result);
    expect(onSelect).toHaveBeenCalledWith(result);
    await host.error({ code: 'rate_limited', message: 'Slow down.', recoverable: true, retryAfter: 60 });
    expect(onError).toHaveBeenCalledWith({ code: 'rate_limited', message: 'Slow down.', recoverable: true, retryAfter: 60 });
  });

  it('turns the frame’s preview and clear into onPreview and onClear, and ignores them without', async () => {
    const onPreview = vi.fn();
    const onClear = vi.fn();
    const { host } = await connected({ onPreview, onClear });
    const result = { success: true as const, loc_code: 'FR-0RMB-CQXT', latitude: 1, longitude: 2, address: 'Paris', country_code: 'FR', cell: { north: 1, south: 0, east: 1, west: 0 }, saved: false, share_url: 'https://loc.example/FR-0RMB-CQXT' };
    await host.preview(result);
    expect(onPreview).toHaveBeenCalledWith(result);
    await host.clear();
    expect(onClear).toHaveBeenCalledTimes(1);
    const bare = await connected({});
    await expect(bare.host.preview(result)).resolves.toBeUndefined();
    await expect(bare.host.clear()).resolves.toBeUndefined();
  });

  it('renews the token through getSessionToken, and passes its failure on', async () => {
    const getSessionToken = vi.fn().mockResolvedValueOnce('sid_456.next').mockRejectedValueOnce(new Error('server down'));
    const { host, init } = await connected({ getSessionToken });
    expect(init.renewable).toBe(true);
    await expect(host.renew()).resolves.toBe('sid_456.next');
    await expect(host.renew()).rejects.toThrow('server down');
  });

  it('keeps an integrator’s exception in its callback from breaking the embed', async () => {
    const boom = new Error('integrator bug');
    const { host } = await connected({
      onSelect: () => {
        throw boom;
      },
    });
    await expect(host.select({} as never)).resolves.toBeUndefined();
    expect(reportError).toHaveBeenCalledWith(boom);
  });

  it('forwards setStyle and setView, checking them first', async () => {
    const { calls, handle } = await connected();
    handle.setStyle('satellite');
    handle.setView({ lat: 10, lng: 20 }, 17);
    handle.setView([11, 21]);
    await vi.waitFor(() => expect(calls.setView).toHaveBeenCalledTimes(2));
    expect(calls.setStyle).toHaveBeenCalledWith('satellite');
    expect(calls.setView).toHaveBeenNthCalledWith(1, { lat: 10, lng: 20 }, 17);
    expect(calls.setView).toHaveBeenNthCalledWith(2, { lat: 11, lng: 21 }, undefined);
    expect(() => handle.setStyle('night' as never)).toThrow('setStyle: style must be one of "streets", "satellite", "traffic", "biking"; received "night".');
    expect(() => handle.setView([100, 0])).toThrow(/setView: center must be .*; received \[100,0\]\./);
    expect(() => handle.setView([0, 0], 30)).toThrow('setView: zoom must be an integer from 0 to 20; received 30.');
  });

  it('says nothing more once the session check has stopped the mount, even from a frame that connected first', async () => {
    let answerCheck: (response: Response) => void = () => {};
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answerCheck = resolve)));
    const onReady = vi.fn();
    const onSelect = vi.fn();
    const onError = vi.fn();
    const { host } = await connected({ onReady, onSelect, onError });
    const message = 'This embed session does not exist.';
    answerCheck(new Response(JSON.stringify({ success: false, code: 'invalid_session', message, error: message }), { status: 401 }));
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith({ code: 'invalid_session', message, recoverable: false }));

    // The stop cut the frame off: its calls are not answered any more, let alone passed on.
    void host.ready({ style: 'streets', center: { lat: 1, lng: 2 }, zoom: 3, expiresAt: '2030-01-01T00:00:00.000Z', locale: 'en', requiredMessage: 'Choose a location on the map.' });
    void host.select({} as never);
    void host.error({ code: 'network', message: 'Offline.', recoverable: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onReady).not.toHaveBeenCalled();
    expect(onSelect).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('sends the frame nothing after destroy()', async () => {
    const { handle } = await connected();
    const post = vi.spyOn(MessagePort.prototype, 'postMessage');
    handle.destroy();
    handle.setStyle('satellite');
    handle.setView({ lat: 10, lng: 20 }, 17);
    expect(post).not.toHaveBeenCalled();
  });

  it('closes both of its ports on destroy(), so nothing calls back after it', async () => {
    const close = vi.spyOn(MessagePort.prototype, 'close');
    const { handle } = await connected();
    handle.destroy();
    expect(close).toHaveBeenCalledTimes(2);
    expect(new Set(close.mock.contexts).size).toBe(2);
  });
});

describe('the session check', () => {
  const answer = (status: number, body: unknown) =>
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

  it('asks the service for the session’s public record, without credentials', () => {
    mount();
    expect(fetchMock).toHaveBeenCalledWith(`${SERVICE}/embed/session/sid_123`, expect.objectContaining({ credentials: 'omit' }));
  });

  it('reports origin_mismatch at once when the session is for another origin, and nothing after it', async () => {
    vi.useFakeTimers();
    answer(200, { origin: 'https://other.example', expires_at: '2030-01-01T00:00:00Z' });
    const onError = vi.fn();
    mount({ onError });
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(onError).toHaveBeenCalledWith({
      code: 'origin_mismatch',
      message: 'The session is for https://other.example, this page is https://shop.example.',
      recoverable: false,
    });
    vi.advanceTimersByTime(60_000);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('takes a 404 without the invalid_session code for a missing route, not a missing session', async () => {
    vi.useFakeTimers();
    answer(404, { success: false, code: 'not_found', message: 'There is nothing at this path.' });
    const onError = vi.fn();
    mount({ onError });
    await vi.runAllTimersAsync();
    expect(onError.mock.calls.map(([error]) => error.code)).toEqual(['load_timeout']);
  });

  it('reports a 404 invalid_session from the session check with the service’s message', async () => {
    const message = 'This embed session does not exist.';
    answer(404, { success: false, code: 'invalid_session', message, error: message });
    const onError = vi.fn();
    mount({ onError });
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith({ code: 'invalid_session', message, recoverable: false }));
  });

  it.each([
    [401, 'key_inactive', 'The API key that created this session is disabled.'],
    [403, 'partner_required', 'The account of this session is no longer a partner.'],
  ])('leaves a %i %s to the frame, whose page says it before onReady', async (status, code, message) => {
    vi.useFakeTimers();
    answer(status, { success: false, code, message, error: message });
    const onError = vi.fn();
    mount({ onError });
    await vi.runAllTimersAsync();
    expect(onError.mock.calls.map(([error]) => error.code)).toEqual(['load_timeout']);
  });

  it.each([
    ['the session is for this page', () => answer(200, { origin: 'https://shop.example', expires_at: '2030-01-01T00:00:00Z' })],
    ['the check fails', () => fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))],
  ])('stays quiet when %s: only the frame’s own timeout speaks', async (_, prepare) => {
    vi.useFakeTimers();
    prepare();
    const onError = vi.fn();
    mount({ onError });
    await vi.runAllTimersAsync();
    expect(onError.mock.calls.map(([error]) => error.code)).toEqual(['load_timeout']);
  });
});
