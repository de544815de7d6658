// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://shop.example/checkout"}
/**
 * loadLoc in a page: jsdom runs no fetched script, so each test plays the script's part — it defines
 * LOC and fires `load`, or fires `error` — on the tag loadLoc put in the page. The real script in a
 * real browser is the integrator test's (test/integrator/integrator-package.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocGlobal } from './embed.ts';

const V1 = 'https://loc.example/embed/v1/loc-embed.js';
const FAKE_LOC: LocGlobal = { version: 'test', mount: () => { throw new Error('not in this test'); } };

/** A fresh copy of the module, as a page that has not called it yet has. */
const fresh = async () => {
  vi.resetModules();
  return import('./embed.ts');
};

const tags = () => Array.from(document.querySelectorAll('script'));

/** What the script does once the browser ran it. */
function scriptRuns(tag: HTMLScriptElement, defines = true) {
  if (defines) window.LOC = FAKE_LOC;
  tag.dispatchEvent(new Event('load'));
}

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  delete (window as { LOC?: LocGlobal }).LOC;
});

afterEach(() => vi.restoreAllMocks());

describe('loadLoc', () => {
  it('changes nothing when imported', async () => {
    const before = Object.keys(window).length;
    await fresh();
    expect(tags()).toHaveLength(0);
    expect(window.LOC).toBeUndefined();
    expect(Object.keys(window).length).toBe(before);
  });

  it('injects the versioned script once and resolves every call with LOC', async () => {
    const { loadLoc } = await fresh();
    const first = loadLoc({ baseUrl: 'https://loc.example/' });
    const second = loadLoc({ baseUrl: 'https://loc.example' });
    expect(second).toBe(first);
    expect(tags().map((tag) => [tag.src, tag.async, tag.parentElement?.tagName])).toEqual([[V1, true, 'HEAD']]);
    scriptRuns(tags()[0]);
    await expect(first).resolves.toBe(FAKE_LOC);
    await expect(loadLoc({ baseUrl: 'https://loc.example' })).resolves.toBe(FAKE_LOC);
    expect(tags()).toHaveLength(1);
  });

  it('keeps a path prefix of the base URL', async () => {
    const { loadLoc } = await fresh();
    void loadLoc({ baseUrl: 'https://example.org/maps/' });
    expect(tags()[0].src).toBe('https://example.org/maps/embed/v1/loc-embed.js');
  });

  it('reuses a tag of the page for the same service, by either path, and injects none', async () => {
    const { loadLoc } = await fresh();
    document.body.innerHTML = '<script src="https://loc.example/embed/loc-embed.js"></script>';
    const load = loadLoc({ baseUrl: 'https://loc.example' });
    expect(tags()).toHaveLength(1);
    scriptRuns(tags()[0]);
    await expect(load).resolves.toBe(FAKE_LOC);
  });

  it('resolves at once with a LOC the page already has', async () => {
    const { loadLoc } = await fresh();
    window.LOC = FAKE_LOC;
    await expect(loadLoc({ baseUrl: 'https://loc.example' })).resolves.toBe(FAKE_LOC);
    expect(tags()).toHaveLength(0);
  });

  it('rejects when the script fails to load, then tries again with a new tag', async () => {
    const { loadLoc } = await fresh();
    const failed = loadLoc({ baseUrl: 'https://loc.example' });
    tags()[0].dispatchEvent(new Event('error'));
    await expect(failed).rejects.toThrow(`loadLoc: could not load ${V1}; check that the service at https://loc.example is up`);
    expect(tags()).toHaveLength(0);
    const retry = loadLoc({ baseUrl: 'https://loc.example' });
    expect(retry).not.toBe(failed);
    expect(tags()).toHaveLength(1);
    scriptRuns(tags()[0]);
    await expect(retry).resolves.toBe(FAKE_LOC);
  });

  it('rejects when the script loads but defines no LOC, then tries again', async () => {
    const { loadLoc } = await fresh();
    const failed = loadLoc({ baseUrl: 'https://loc.example' });
    scriptRuns(tags()[0], false);
    await expect(failed).rejects.toThrow(`loadLoc: ${V1} loaded but did not define LOC; is https://loc.example a loc service?`);
    const retry = loadLoc({ baseUrl: 'https://loc.example' });
    scriptRuns(tags()[0]);
    await expect(retry).resolves.toBe(FAKE_LOC);
  });

  it('refuses a second service in the same page: the script keeps the first LOC', async () => {
    const { loadLoc } = await fresh();
    void loadLoc({ baseUrl: 'https://loc.example' });
    await expect(loadLoc({ baseUrl: 'https://staging.loc.example' })).rejects.toThrow(
      'loadLoc: this page already loads the loc service at https://loc.example; one page uses one service, so LOC cannot come from https://staging.loc.example as well.',
    );
    expect(tags()).toHaveLength(1);
  });

  it('names a base URL it cannot use, and what it received', async () => {
    const { loadLoc } = await fresh();
    const cases: [unknown, string][] = [
      ['loc.example', '"loc.example"'],
      ['ftp://loc.example', '"ftp://loc.example"'],
      ['https://loc.example/?x=1', '"https://loc.example/?x=1"'],
      [undefined, 'undefined'],
      [null, 'null'],
      [42, 'number'],
    ];
    for (const [baseUrl, received] of cases) {
      await expect(loadLoc({ baseUrl } as { baseUrl: string })).rejects.toThrow(`baseUrl must be the service's absolute http(s) URL without query or fragment, e.g. "https://loc.example"; received ${received}.`);
    }
    await expect(loadLoc(undefined as unknown as { baseUrl: string })).rejects.toThrow('received undefined.');
    expect(tags()).toHaveLength(0);
  });
});
