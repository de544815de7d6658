// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://shop.example/checkout"}
/**
 * The fake LOC as a component test meets it: installed, what loadLoc resolves with; the real loader's
 * checks on mount; one mount per element; the test driving each mount's callbacks; and the handle
 * recording its calls and behaving as the real one is documented to.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadLoc } from './embed.ts';
import { createFakeLoc, type FakeLoc } from './fake-loc.ts';

let fake: FakeLoc;
let uninstall: () => void;
const TOKEN = 'sid_1.secret';

beforeEach(() => {
  document.body.innerHTML = '<div id="map"></div><div id="other"></div>';
  fake = createFakeLoc();
  uninstall = fake.install();
});
afterEach(() => uninstall());

describe('the fake LOC', () => {
  it('is what loadLoc resolves with once installed, with no script injected, and goes away on uninstall', async () => {
    await expect(loadLoc({ baseUrl: 'https://loc.example' })).resolves.toBe(fake);
    expect(document.querySelectorAll('script')).toHaveLength(0);
    uninstall();
    expect(window.LOC).toBeUndefined();
    uninstall = () => {};
  });

  it('checks mount as the real loader does: the token required, known options, a target that exists', () => {
    expect(() => fake.mount('#map', {} as never)).toThrow('LOC.mount: options.sessionToken must be');
    expect(() => fake.mount('#map', TOKEN as never)).toThrow('LOC.mount: options must be an object with at least sessionToken');
    expect(() => fake.mount('#map', { sessionToken: TOKEN, zoom: 30 })).toThrow('LOC.mount: options.zoom');
    expect(() => fake.mount('#map', { sessionToken: TOKEN, colour: 'red' } as never)).toThrow('LOC.mount: options.colour must be one of the known options');
    expect(() => fake.mount('#nowhere', { sessionToken: TOKEN })).toThrow('LOC.mount: no element matches the selector "#nowhere".');
    // The language and the look, by name and shape, as the loader checks them; their values are the frame's to judge.
    expect(() => fake.mount('#map', { sessionToken: TOKEN, locale: 'français' })).toThrow('LOC.mount: options.locale must be a BCP 47 language tag');
    expect(() => fake.mount('#map', { sessionToken: TOKEN, appearance: { theme: 'night' } } as never)).toThrow('LOC.mount: options.appearance.theme must be one of');
    expect(() => fake.mount('#map', { sessionToken: TOKEN, appearance: { variables: { accent: '#000' } } } as never)).toThrow('options.appearance.variables.accent');
    expect(fake.mounts).toHaveLength(0);
    fake.mount('#map', { sessionToken: TOKEN, locale: 'ar', appearance: { theme: 'dark', variables: { colorPrimary: '#8ab4f8' } } });
    expect(fake.lastMount().options).toMatchObject({ locale: 'ar', appearance: { theme: 'dark', variables: { colorPrimary: '#8ab4f8' } } });
  });

  it('records each mount with its target and options, puts an iframe there, and replaces a mount in the same element', () => {
    const onReady = vi.fn();
    const first = fake.mount('#map', { sessionToken: TOKEN, height: '300px', title: 'Delivery point', onReady });
    const map = document.getElementById('map')!;
    expect(fake.lastMount()).toMatchObject({ target: map, options: { sessionToken: TOKEN, height: '300px' }, handle: first });
    expect(first.iframe.parentElement).toBe(map);
    expect(first.iframe.title).toBe('Delivery point');
    const second = fake.mount(map, { sessionToken: 'sid_2.secret' });
    expect(map.querySelectorAll('iframe')).toEqual(expect.objectContaining({ length: 1 }));
    expect(map.querySelector('iframe')).toBe(second.iframe);
    expect(fake.mounts[0]!.isStopped).toBe(true);
    expect(() => fake.mounts[0]!.ready()).toThrow('the mount has stopped');
    expect(onReady).not.toHaveBeenCalled();
  });

  it('lets the test drive a mount: ready once, a visitor’s select with a complete result, errors marked as the map marks them', () => {
    const onReady = vi.fn();
    const onSelect = vi.fn();
    const onError = vi.fn();
    fake.mount('#map', { sessionToken: TOKEN, center: [51.5, -0.12], zoom: 12, onReady, onSelect, onError });
    const mount = fake.lastMount();
    expect(() => mount.select()).toThrow('call ready() first');
    mount.ready({ expiresAt: '2030-01-01T00:00:00.000Z' });
    expect(onReady).toHaveBeenCalledWith({ style: 'streets', center: { lat: 51.5, lng: -0.12 }, zoom: 12, expiresAt: '2030-01-01T00:00:00.000Z', locale: 'en', requiredMessage: 'Choose a location on the map.' });
    expect(() => mount.ready()).toThrow('onReady was called already');

    mount.select('us550mrq5l');
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ loc_code: 'US-550M-RQ5L', country_code: 'US', source: 'visitor', saved: true, share_url: 'https://loc.example/US-550M-RQ5L' }));
    const own = mount.select({ address: 'Gate 4' }, 'page');
    expect(own).toMatchObject({ success: true, loc_code: 'FR-0RMB-CLY0', address: 'Gate 4', source: 'page', cell: { north: expect.any(Number) } });
    expect(() => mount.select('not a code')).toThrow('is not a location code');

    expect(mount.error('rate_limited')).toEqual({ code: 'rate_limited', message: 'A test reported rate_limited.', recoverable: true });
    // A session's area refuses a point as the real map does: the visitor may choose another.
    expect(mount.error('outside_session_area')).toEqual({ code: 'outside_session_area', message: 'A test reported outside_session_area.', recoverable: true });
    expect(mount.isStopped).toBe(false);
    expect(mount.expire()).toEqual({ code: 'session_expired', message: 'The session has expired.', recoverable: false });
    expect(onError).toHaveBeenCalledTimes(3);
    expect(mount.isStopped).toBe(true);
    expect(() => mount.select()).toThrow('the mount has stopped');
  });

  it('lets the test preview and clear as the visitor does, and opens on a value in onReady', () => {
    const onPreview = vi.fn();
    const onClear = vi.fn();
    const onReady = vi.fn();
    fake.mount('#map', { sessionToken: TOKEN, value: 'us550mrq5l', onPreview, onClear, onReady });
    const mount = fake.lastMount();
    expect(() => mount.preview()).toThrow('call ready() first');
    mount.ready();
    expect(onReady.mock.calls[0][0].value).toMatchObject({ loc_code: 'US-550M-RQ5L', country_code: 'US' });
    expect(onReady.mock.calls[0][0].value).not.toHaveProperty('source');
    const previewed = mount.preview('FR-0RMB-CQXT');
    expect(previewed).toMatchObject({ loc_code: 'FR-0RMB-CQXT', saved: false });
    expect(onPreview).toHaveBeenCalledWith(previewed);
    mount.clear();
    expect(onClear).toHaveBeenCalledTimes(1);
    mount.handle.destroy();
    expect(() => mount.clear()).toThrow('the mount has stopped');
  });

  it('gives a handle that records its calls, checks them as the real one, waits for ready and rejects once destroyed', async () => {
    const onSelect = vi.fn();
    const handle = fake.mount('#map', { sessionToken: TOKEN, onSelect });
    const mount = fake.lastMount();
    handle.setStyle('satellite');
    handle.setView({ lat: 10, lng: 20 });
    handle.setView([1, 2], 15);
    expect(() => handle.setStyle('neon' as never)).toThrow('setStyle: style');
    expect(() => handle.select({ lat: 100, lng: 0 })).toThrow('select: target');
    expect([mount.style, mount.view]).toEqual(['satellite', { center: { lat: 1, lng: 2 }, zoom: 15 }]);

    const early = handle.select('FR-0RMB-CLY0');
    const cleared = handle.clear();
    expect(onSelect).not.toHaveBeenCalled();
    mount.ready();
    await expect(early).resolves.toMatchObject({ loc_code: 'FR-0RMB-CLY0', source: 'page' });
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ source: 'page' }));
    await expect(cleared).resolves.toBeUndefined();

    handle.destroy();
    handle.destroy();
    expect(document.querySelector('#map iframe')).toBeNull();
    await expect(handle.select([48, 2])).rejects.toEqual({ name: 'AbortError', message: 'The map was destroyed.' });
    expect(mount.calls.map((call) => call.method)).toEqual(['setStyle', 'setView', 'setView', 'setStyle', 'select', 'select', 'clear', 'destroy', 'destroy', 'select']);
  });

  it('refuses what the service refuses as the real map does: a page’s select of no code rejects with invalid_code, and a value of none is reported before onReady', async () => {
    const onError = vi.fn();
    const onReady = vi.fn();
    const handle = fake.mount('#map', { sessionToken: TOKEN, value: 'not a code', onError, onReady });
    const early = handle.select('FR-0RMB-CLY');
    fake.lastMount().ready();
    const refusal = { code: 'invalid_code', recoverable: true };
    expect(onError.mock.calls).toEqual([[{ ...refusal, message: '"not a code" is not a location code: expected CC-XXXX-XXXX.' }]]);
    expect(onError.mock.invocationCallOrder[0]).toBeLessThan(onReady.mock.invocationCallOrder[0]);
    expect(onReady.mock.calls[0][0]).not.toHaveProperty('value');
    await expect(early).rejects.toEqual({ ...refusal, message: '"FR-0RMB-CLY" is not a location code: expected CC-XXXX-XXXX.' });
    // Recoverable: told to the page that asked, not to onError, and the map goes on.
    await expect(handle.select('nonsense')).rejects.toMatchObject(refusal);
    expect(onError).toHaveBeenCalledTimes(1);
    await expect(handle.select(' fr 0rmb cly0 ')).resolves.toMatchObject({ loc_code: 'FR-0RMB-CLY0', source: 'page' });
  });

  it('renews through the component’s getSessionToken, refusing what the real map refuses', async () => {
    fake.mount('#map', { sessionToken: TOKEN, getSessionToken: async () => 'sid_3.fresh' });
    await expect(fake.lastMount().renew()).resolves.toBe('sid_3.fresh');
    fake.mount('#other', { sessionToken: TOKEN, getSessionToken: () => ({ session_token: 'x.y' }) as never });
    await expect(fake.lastMount().renew()).rejects.toThrow('getSessionToken must resolve with the session_token');
    fake.mount('#other', { sessionToken: TOKEN });
    await expect(fake.lastMount().renew()).rejects.toThrow('the mount has no getSessionToken');
  });
});

// As the testing guide shows it: each test makes, installs and restores its own fake, and the code
// under test reaches it through loadLoc. The second test must get its own fake, not the first's.
describe('a fake per test', () => {
  for (const test of ['first', 'second']) {
    it(`is what loadLoc resolves with in the ${test} test, and its mounts fill`, async () => {
      const LOC = await loadLoc({ baseUrl: 'https://loc.example' });
      expect(LOC).toBe(fake);
      LOC.mount('#map', { sessionToken: TOKEN });
      expect(fake.mounts).toHaveLength(1);
    });
  }
});
