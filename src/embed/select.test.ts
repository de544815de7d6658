// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://shop.example/checkout"}
/**
 * The handle's select and clear in the loader: the target checked at once, the calls carried to the
 * frame over the channel — behind init, also when made before the frame connected — and the frame's
 * answers, failures and the end of the mount turned into the promise's outcome. The frame side is the
 * real comlink on a fake API.
 */
import { expose } from 'comlink';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hello, spyOnFrame } from '../../test/support/loader-page.ts';
import { createLoc } from './loader.ts';
import type { FrameApi, HostCallbacks, LatLng } from './protocol.ts';
import type { LocEmbedError, LocGlobal, LocHandle, LocMountOptions, LocSelectResult } from './public-types.ts';

const SERVICE = 'https://loc.example';
const RESULT: LocSelectResult = {
  success: true,
  loc_code: 'FR-0RMB-CQXT',
  latitude: 48.85841,
  longitude: 2.29449,
  address: 'near Paris, France',
  country_code: 'FR',
  cell: { north: 48.85842, south: 48.8584, east: 2.29451, west: 2.29447 },
  saved: true,
  share_url: 'https://loc.example/FR-0RMB-CQXT',
  source: 'page',
};
const NOT_FOUND: LocEmbedError = { code: 'code_not_found', message: 'No cell has the code "FR-0000-0000".', recoverable: true };

let LOC: LocGlobal;
const handles: LocHandle[] = [];

beforeEach(() => {
  document.body.innerHTML = '<div id="map"></div>';
  vi.stubGlobal('fetch', vi.fn(() => new Promise(() => {})));
  LOC = createLoc(`${SERVICE}/embed/loc-embed.js`, 'test');
});

afterEach(() => {
  handles.splice(0).forEach((handle) => handle.destroy());
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function mount(options: Partial<LocMountOptions> = {}): LocHandle {
  const handle = LOC.mount('#map', { sessionToken: 'sid_123.secret', ...options });
  handles.push(handle);
  return handle;
}

/**
 * Completes the handshake and exposes a fake frame API on the port, as the frame's comlink does; the
 * API records the calls it gets, in order, and answers select and clear as `answers` says.
 */
function connect(handle: LocHandle, answers: { select?: (target: string | LatLng) => Promise<LocSelectResult> } = {}) {
  const calls: string[] = [];
  const record = (name: string) => (...args: unknown[]) => void calls.push(`${name} ${JSON.stringify(args[0])}`);
  let handOver: (host: HostCallbacks) => void = () => {};
  const host = new Promise<HostCallbacks>((resolve) => (handOver = resolve));
  const api: FrameApi = {
    init: (init, callbacks) => {
      record('init')(init);
      handOver(callbacks);
    },
    setStyle: record('setStyle'),
    setView: record('setView'),
    select: async (target) => {
      record('select')(target);
      return answers.select ? answers.select(target) : RESULT;
    },
    clear: async () => record('clear')(),
  };
  const post = spyOnFrame(handle.iframe);
  hello(handle.iframe, SERVICE);
  expose(api, post.mock.calls[0][2][0] as MessagePort);
  return { calls, host };
}

describe('handle.select', () => {
  it.each([
    ['a number', 42, '42'],
    ['null', null, 'null'],
    ['a point out of range', { lat: 95, lng: 0 }, '{"lat":95,"lng":0}'],
    ['a point of three numbers', [1, 2, 3], '[1,2,3]'],
    ['a point with lat and lon', { lat: 1, lon: 2 }, '{"lat":1,"lon":2}'],
  ])('throws at once on %s, showing what was expected and received', (_, target, received) => {
    const handle = mount();
    expect(() => handle.select(target as never)).toThrow(TypeError);
    expect(() => handle.select(target as never)).toThrow(
      `select: target must be { lat, lng } or [lat, lng] with lat from -90 to 90 and lng from -180 to 180; received ${received}.`,
    );
  });

  it('carries a code or a point to the frame, behind init, and resolves with what the frame answers', async () => {
    const handle = mount();
    const { calls } = connect(handle);
    await expect(handle.select('fr-0rmb-cqxt')).resolves.toEqual(RESULT);
    await expect(handle.select([48.85841, 2.29449])).resolves.toEqual(RESULT);
    expect(calls.slice(1)).toEqual(['select "fr-0rmb-cqxt"', 'select {"lat":48.85841,"lng":2.29449}']);
    expect(calls[0]).toMatch(/^init /);
  });

  it('made before the frame connected, waits on the port, and reaches the frame after init, in the order made', async () => {
    const handle = mount();
    const selected = handle.select({ lat: 48.85841, lng: 2.29449 });
    handle.setStyle('satellite');
    const cleared = handle.clear();
    const { calls } = connect(handle);
    await expect(selected).resolves.toEqual(RESULT);
    await expect(cleared).resolves.toBeUndefined();
    expect(calls).toEqual([
      expect.stringMatching(/^init /),
      'select {"lat":48.85841,"lng":2.29449}',
      'setStyle "satellite"',
      'clear undefined',
    ]);
  });

  it('rejects with the error the frame answers, as it is', async () => {
    const handle = mount();
    connect(handle, { select: () => Promise.reject(NOT_FOUND) });
    await expect(handle.select('FR-0000-0000')).rejects.toEqual(NOT_FOUND);
  });

  it('rejects with an AbortError when the frame dropped the choice for a later one', async () => {
    const handle = mount();
    const dropped = { name: 'AbortError', message: 'A later choice dropped this one.' };
    connect(handle, { select: () => Promise.reject(dropped) });
    await expect(handle.select('FR-0RMB-CQXT')).rejects.toEqual(dropped);
  });
});

describe('the end of a mount, for select and clear', () => {
  const destroyed = { name: 'AbortError', message: 'The map was destroyed.' };

  it('rejects what is still waiting at destroy(), and what is asked after it', async () => {
    const handle = mount();
    connect(handle, { select: () => new Promise(() => {}) });
    const waiting = handle.select('FR-0RMB-CQXT');
    handle.destroy();
    await expect(waiting).rejects.toEqual(destroyed);
    await expect(handle.select('FR-0RMB-CQXT')).rejects.toEqual(destroyed);
    await expect(handle.clear()).rejects.toEqual(destroyed);
  });

  it('rejects a select made before the frame connected with the error that stopped the mount', async () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    const handle = mount({ loadTimeout: 5000, onError });
    const waiting = handle.select('FR-0RMB-CQXT');
    const outcome = waiting.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(5000);
    const timeout = { code: 'load_timeout', message: 'The map frame did not answer within 5000 ms.', recoverable: false };
    expect(await outcome).toEqual(timeout);
    expect(onError).toHaveBeenCalledWith(timeout);
    await expect(handle.clear()).rejects.toEqual(timeout);
  });

  it('rejects nothing at a failure the map goes on from, and everything at one it cannot', async () => {
    const onError = vi.fn();
    const handle = mount({ onError });
    let answer: (result: LocSelectResult) => void = () => {};
    const { calls, host } = connect(handle, { select: () => new Promise((resolve) => (answer = resolve)) });
    const callbacks = await host;
    await callbacks.error({ code: 'network', message: 'Offline.', recoverable: true });
    expect(onError).toHaveBeenCalledTimes(1);
    const first = handle.select('FR-0RMB-CQXT');
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    answer(RESULT);
    await expect(first).resolves.toEqual(RESULT);

    const second = handle.select('FR-0RMB-CQXT');
    const expired = { code: 'session_expired', message: 'The session has expired.', recoverable: false } as const;
    void callbacks.error(expired);
    await expect(second).rejects.toEqual(expired);
    await expect(handle.select('FR-0RMB-CQXT')).rejects.toEqual(expired);
    expect(onError).toHaveBeenLastCalledWith(expired);
  });
});
