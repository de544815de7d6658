import { wrap } from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FrameApi } from '../src/embed/protocol.ts';
import { CONNECT_GRACE_MS, connect } from './channel.ts';

const ORIGIN = 'https://shop.example';

/** A frame window whose parent records what it is sent, and whose message listener the test can call. */
function frameWindow() {
  const parent = { postMessage: vi.fn() };
  const listeners = new Set<(event: MessageEvent) => void>();
  const win = {
    parent,
    addEventListener: (_: string, listener: (event: MessageEvent) => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: (event: MessageEvent) => void) => listeners.delete(listener),
  };
  const deliver = (event: { source: unknown; origin: string; data: unknown; ports: MessagePort[] }) =>
    [...listeners].forEach((listener) => listener(event as unknown as MessageEvent));
  return { win: win as unknown as Window, parent, listeners, deliver };
}

const ports: MessagePort[] = [];
const stops: (() => void)[] = [];
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  vi.useRealTimers();
  ports.splice(0).forEach((port) => port.close());
  delete (Object.prototype as Record<string, unknown>).locPolluted;
});

function channel() {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  return { port1, port2 };
}

describe('the frame’s handshake', () => {
  const api = (): FrameApi => ({ init: vi.fn(), setStyle: vi.fn(), setView: vi.fn(), select: vi.fn(), clear: vi.fn() });
  /** The handshake of nonce n-1 from the session's origin; `stop` is called after the test. */
  /** The page waits this long from now (its loadTimeout, less the time the frame took to load). */
  const PAGE_WAITS_MS = 3000;
  const handshake = (frameApi = api(), onUnanswered = vi.fn()) => ({ origin: ORIGIN, nonce: 'n-1', api: frameApi, until: Date.now() + PAGE_WAITS_MS, onUnanswered });
  const begin = (win: Window, ...args: Parameters<typeof handshake>) => stops.push(connect(win, handshake(...args)));

  it('says hello to the parent, aimed at the session’s origin only', () => {
    const { win, parent } = frameWindow();
    begin(win);
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'loc:hello', nonce: 'n-1' }, ORIGIN);
  });

  it('exposes its API on the port of a genuine connect, and stops listening and waiting', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { win, parent, listeners, deliver } = frameWindow();
    const frameApi = api();
    const onUnanswered = vi.fn();
    begin(win, frameApi, onUnanswered);
    const { port1, port2 } = channel();
    deliver({ source: parent, origin: ORIGIN, data: { type: 'loc:connect', nonce: 'n-1' }, ports: [port2] });
    expect(listeners.size).toBe(0);
    await wrap<FrameApi>(port1).setStyle('biking');
    expect(frameApi.setStyle).toHaveBeenCalledWith('biking');
    vi.advanceTimersByTime(60_000);
    expect(onUnanswered).not.toHaveBeenCalled();
  });

  it('lets comlink act only on calls of the API’s own methods: no GET, SET, CONSTRUCT, ENDPOINT or deeper path', async () => {
    const { win, parent, deliver } = frameWindow();
    const frameApi = api();
    begin(win, frameApi);
    const { port1, port2 } = channel();
    deliver({ source: parent, origin: ORIGIN, data: { type: 'loc:connect', nonce: 'n-1' }, ports: [port2] });
    const replies: string[] = [];
    port1.addEventListener('message', ({ data }: MessageEvent<{ id: string }>) => replies.push(data.id));
    port1.start();

    const raw = (value: unknown) => ({ type: 'RAW', value });
    const forged = [
      { id: 'set', type: 'SET', path: ['setStyle', '__proto__', '__proto__', 'locPolluted'], value: raw('yes') },
      { id: 'get', type: 'GET', path: ['setStyle', 'name'] },
      { id: 'get-all', type: 'GET', path: [] },
      { id: 'construct', type: 'CONSTRUCT', path: ['setStyle'], argumentList: [] },
      { id: 'endpoint', type: 'ENDPOINT' },
      { id: 'deeper', type: 'APPLY', path: ['setStyle', 'call'], argumentList: [raw(null), raw('biking')] },
      { id: 'not-a-name', type: 'APPLY', path: [['setStyle']], argumentList: [raw('biking')] },
    ];
    for (const message of forged) port1.postMessage(message);
    // Messages on a port arrive in order: once this call is answered, every forged one has been seen.
    await wrap<FrameApi>(port1).setView({ lat: 1, lng: 2 }, 3);

    expect(frameApi.setView).toHaveBeenCalledWith({ lat: 1, lng: 2 }, 3);
    expect(frameApi.setStyle).not.toHaveBeenCalled();
    expect(({} as Record<string, unknown>).locPolluted).toBeUndefined();
    expect(replies.filter((id) => forged.some((message) => message.id === id))).toEqual([]);

    // comlink's release still gets through, and the port is closed after it.
    const close = vi.spyOn(port2, 'close');
    port1.postMessage({ id: 'release', type: 'RELEASE' });
    await vi.waitFor(() => expect(replies).toContain('release'));
    await vi.waitFor(() => expect(close).toHaveBeenCalled());
  });

  it('answers a call of a method it does not have — inherited, or one a later loader knows — with a recoverable internal_error, and goes on', async () => {
    const { win, parent, deliver } = frameWindow();
    const frameApi = api();
    begin(win, frameApi);
    const { port1, port2 } = channel();
    deliver({ source: parent, origin: ORIGIN, data: { type: 'loc:connect', nonce: 'n-1' }, ports: [port2] });
    const frame = wrap<FrameApi & { hasOwnProperty(name: string): boolean; highlight(code: string): void }>(port1);

    for (const call of [() => frame.highlight('FR-0RMB-CQXT'), () => frame.hasOwnProperty('init')]) {
      await expect(call()).rejects.toEqual({
        code: 'internal_error',
        message: expect.stringMatching(/^This map has no "(highlight|hasOwnProperty)": it was served by an earlier version of the service than the loader\./),
        recoverable: true,
      });
    }
    await frame.setView({ lat: 1, lng: 2 }, 3);
    expect(frameApi.setView).toHaveBeenCalledWith({ lat: 1, lng: 2 }, 3);
  });

  it('takes what the page sent on its end before the connect, init first, in order: select and clear too, with their answers', async () => {
    const { win, parent, deliver } = frameWindow();
    const frameApi = api();
    const order: string[] = [];
    vi.mocked(frameApi.init).mockImplementation(() => void order.push('init'));
    vi.mocked(frameApi.select).mockImplementation(async (target) => {
      order.push(`select ${String(target)}`);
      throw { code: 'code_not_found', message: 'No cell has this code.', recoverable: true };
    });
    vi.mocked(frameApi.clear).mockImplementation(async () => void order.push('clear'));
    begin(win, frameApi);
    const { port1, port2 } = channel();
    const page = wrap<FrameApi>(port1);
    void page.init({} as never, {} as never);
    const selected = page.select('ZZ-0000-0000');
    const cleared = page.clear();
    deliver({ source: parent, origin: ORIGIN, data: { type: 'loc:connect', nonce: 'n-1' }, ports: [port2] });
    await expect(selected).rejects.toEqual({ code: 'code_not_found', message: 'No cell has this code.', recoverable: true });
    await expect(cleared).resolves.toBeUndefined();
    expect(order).toEqual(['init', 'select ZZ-0000-0000', 'clear']);
  });

  it.each([
    ['another window', { source: {} }],
    ['another origin', { origin: 'https://evil.example' }],
    ['http instead of https', { origin: 'http://shop.example' }],
    ['a wrong nonce', { data: { type: 'loc:connect', nonce: 'n-2' } }],
    ['another message type', { data: { type: 'loc:hello', nonce: 'n-1' } }],
    ['no port', { ports: [] }],
  ])('ignores a forged connect from %s, and still gives up on the page in time', (_, forged) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { win, parent, listeners, deliver } = frameWindow();
    const onUnanswered = vi.fn();
    begin(win, api(), onUnanswered);
    const { port2 } = channel();
    const listen = vi.spyOn(port2, 'addEventListener');
    deliver({ source: parent, origin: ORIGIN, data: { type: 'loc:connect', nonce: 'n-1' }, ports: [port2], ...forged });
    expect(listeners.size).toBe(1);
    expect(listen).not.toHaveBeenCalled();
    vi.advanceTimersByTime(PAGE_WAITS_MS + CONNECT_GRACE_MS);
    expect(onUnanswered).toHaveBeenCalledTimes(1);
  });

  it('gives up on a page that does not connect by its deadline and a grace after it, and still takes a later connect', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { win, parent, deliver } = frameWindow();
    const frameApi = api();
    const onUnanswered = vi.fn();
    begin(win, frameApi, onUnanswered);
    vi.advanceTimersByTime(PAGE_WAITS_MS + CONNECT_GRACE_MS - 1);
    expect(onUnanswered).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onUnanswered).toHaveBeenCalledTimes(1);

    // A page too busy to answer in time still gets the API, so that init can tell it the frame stopped.
    const { port1, port2 } = channel();
    deliver({ source: parent, origin: ORIGIN, data: { type: 'loc:connect', nonce: 'n-1' }, ports: [port2] });
    await wrap<FrameApi>(port1).setStyle('biking');
    expect(frameApi.setStyle).toHaveBeenCalledWith('biking');
    expect(onUnanswered).toHaveBeenCalledTimes(1);
  });

  it('waits for a page with a long loadTimeout as long as it waits, and only the grace when its deadline has passed', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const patient = vi.fn();
    stops.push(connect(frameWindow().win, { ...handshake(api(), patient), until: Date.now() + 60_000 }));
    const late = vi.fn();
    stops.push(connect(frameWindow().win, { ...handshake(api(), late), until: Date.now() - 1 }));
    vi.advanceTimersByTime(CONNECT_GRACE_MS);
    expect(late).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000 - 1);
    expect(patient).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(patient).toHaveBeenCalledTimes(1);
  });
});
