// @vitest-environment jsdom
/**
 * The map of a `<loc-picker>`, on loc-js's fake `LOC` (which checks every option as the real loader
 * does): one session per field across remounts, the one new mount that answers an expiry, and nothing
 * mounted after a stop. The field around it, in a real browser, is e2e/picker.spec.ts's.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeLoc, type FakeLoc } from '../../packages/loc-js/src/fake-loc.ts';
import { FieldMap, type MapHost } from './field-map.ts';

let LOC: FakeLoc;
let asked: string[];
let told: { error: unknown[]; failed: string[] };

/** Lets the asked sessions and the script's promise settle. */
const settle = () => new Promise((done) => setTimeout(done, 0));

function fieldMap(host: Partial<MapHost> = {}): FieldMap {
  const ask = () => {
    asked.push(`sid${asked.length + 1}.secret`);
    return Promise.resolve(asked.at(-1)!);
  };
  return new FieldMap(
    {
      box: document.body.appendChild(document.createElement('div')),
      options: () => ({ zoom: 3 }),
      asker: () => ask,
      firstToken: () => undefined,
      error: (error) => void told.error.push(error),
      failed: (error) => void told.failed.push(error.message),
      ...host,
    },
    async () => LOC,
  );
}

beforeEach(() => {
  document.body.innerHTML = '';
  LOC = createFakeLoc();
  asked = [];
  told = { error: [], failed: [] };
});

describe('FieldMap', () => {
  it('mounts once on the page’s first token, and again on the same session however many remounts are asked at once', async () => {
    const map = fieldMap({ firstToken: () => 'first.secret' });
    map.start();
    await settle();
    expect(LOC.mounts.map((mount) => mount.options.sessionToken)).toEqual(['first.secret']);
    map.remount();
    map.remount();
    await settle();
    expect(LOC.mounts.map((mount) => [mount.options.sessionToken, mount.isStopped])).toEqual([['first.secret', true], ['first.secret', false]]);
    expect(asked).toEqual([]);
    map.remount({ newSession: true });
    await settle();
    expect(LOC.lastMount().options.sessionToken).toBe('sid1.secret');
  });

  it('keeps the session a renewal gave for the next remount', async () => {
    const map = fieldMap();
    map.start();
    await settle();
    await expect(LOC.lastMount().renew()).resolves.toBe('sid2.secret');
    map.remount();
    await settle();
    expect(LOC.mounts.map((mount) => mount.options.sessionToken)).toEqual(['sid1.secret', 'sid2.secret']);
  });

  it('answers a session_expired once with a new mount on a new session; an expiry before that one is ready is told', async () => {
    const map = fieldMap({ firstToken: () => 'first.secret' });
    map.start();
    await settle();
    LOC.lastMount().ready();
    LOC.lastMount().expire();
    await settle();
    expect(LOC.mounts.map((mount) => mount.options.sessionToken)).toEqual(['first.secret', 'sid1.secret']);
    expect(told.error).toEqual([]);
    const again = LOC.lastMount().expire();
    await settle();
    expect(told.error).toEqual([again]);
    expect(LOC.mounts).toHaveLength(2);
  });

  it('tells the expiry, and why, when no new session comes', async () => {
    const map = fieldMap({ firstToken: () => 'first.secret', asker: () => () => Promise.reject(new Error('signed out')) });
    map.start();
    await settle();
    LOC.lastMount().expire();
    await settle();
    expect(told.error).toEqual([{ code: 'session_expired', message: 'The session has expired. No new session: signed out', recoverable: false }]);
  });

  it('mounts nothing once stopped, and what waits for the map hears it was destroyed', async () => {
    const map = fieldMap();
    map.start();
    const waiting = map.whenMounted();
    map.stop();
    await settle();
    expect(LOC.mounts).toEqual([]);
    await expect(waiting).rejects.toEqual({ name: 'AbortError', message: 'The map was destroyed.' });
    await expect(map.whenMounted()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('says what is missing when the field has no session to give, and what LOC.mount refused', async () => {
    fieldMap({ asker: () => null }).start();
    fieldMap({ options: () => ({ zoom: 'far' as unknown as number }) }).start();
    await settle();
    expect(told.failed).toEqual([
      '<loc-picker>: give it a session-url attribute, or a sessionToken or getSessionToken property; it has none.',
      '<loc-picker>: LOC.mount: options.zoom must be an integer from 0 to 20; received "far".',
    ]);
  });

  it('hands the field’s callbacks the map’s events', async () => {
    const onReady = vi.fn();
    fieldMap({ options: () => ({ onReady }) }).start();
    await settle();
    const info = LOC.lastMount().ready();
    expect(onReady).toHaveBeenCalledWith(info);
  });
});
