/**
 * The built `loc-embed.js` in a page, as an integrator includes it: a plain script tag on another
 * origin. jsdom loads the script through a resource loader that serves dist/ — nothing leaves the
 * machine, and anything but the loader is refused.
 */
import { readFileSync } from 'node:fs';
import { JSDOM, ResourceLoader, VirtualConsole } from 'jsdom';
import { describe, expect, it } from 'vitest';
import type { LocGlobal } from './public-types.ts';

const SCRIPT_URL = 'https://loc.example/embed/loc-embed.js';
/** The versioned path, which loadLoc uses; served with the same bytes. */
const V1_URL = 'https://loc.example/embed/v1/loc-embed.js';
const LOADER = readFileSync(new URL('../../dist/embed/loc-embed.js', import.meta.url));

class DistLoader extends ResourceLoader {
  override fetch(url: string) {
    if (url.startsWith(SCRIPT_URL) || url.startsWith(V1_URL) || url.startsWith('https://staging.loc.example/embed/loc-embed.js')) {
      return Promise.resolve(LOADER) as ReturnType<ResourceLoader['fetch']>;
    }
    return null;
  }
}

/** A page with the given script tags; resolves once they have run. */
async function page(scripts: string[]): Promise<JSDOM['window'] & { LOC: LocGlobal }> {
  const html = `<!doctype html><div id="map"></div>${scripts.map((src) => `<script src="${src}"></script>`).join('')}`;
  const dom = new JSDOM(html, {
    url: 'https://shop.example/',
    runScripts: 'dangerously',
    resources: new DistLoader(),
    virtualConsole: new VirtualConsole(),
    // jsdom has no fetch, nor MessageChannel: the session check may simply never answer here, and
    // Node's channel stands in for the browser's.
    beforeParse: (window) => Object.assign(window, { fetch: () => new Promise(() => {}), MessageChannel }),
  });
  await new Promise((resolve) => dom.window.addEventListener('load', resolve));
  return dom.window as unknown as JSDOM['window'] & { LOC: LocGlobal };
}

describe('loc-embed.js', () => {
  it('defines LOC from a plain script tag and finds the service from its own src', async () => {
    const window = await page([SCRIPT_URL]);
    expect(typeof window.LOC.mount).toBe('function');
    expect(window.LOC.version).toMatch(/^\d+\.\d+\.\d+/);
    const { iframe } = window.LOC.mount('#map', { sessionToken: 'abc.def' });
    expect(iframe.src.startsWith('https://loc.example/embed/frame/abc#')).toBe(true);
  });

  it('finds the service from the versioned path as well', async () => {
    const window = await page([V1_URL]);
    const { iframe } = window.LOC.mount('#map', { sessionToken: 'abc.def' });
    expect(iframe.src.startsWith('https://loc.example/embed/frame/abc#')).toBe(true);
  });

  it('keeps the first LOC when a second copy of the script runs', async () => {
    const window = await page([SCRIPT_URL, `${SCRIPT_URL}?again`, 'https://staging.loc.example/embed/loc-embed.js']);
    const { iframe } = window.LOC.mount('#map', { sessionToken: 'abc.def' });
    expect(iframe.src.startsWith('https://loc.example/')).toBe(true);
    expect(window.document.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('ships no catalogue text and no tile provider', () => {
    const text = LOADER.toString();
    expect(text).not.toMatch(/partner accounts|hourly request limit|openstreetmap|arcgis/i);
    expect(text).not.toMatch(/comlink/i);
  });
});
