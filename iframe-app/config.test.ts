// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../src/embed/options.ts';
import { readConfig, readStart } from './config.ts';

describe('the frame’s start-up input', () => {
  it('reads the start options of the fragment', () => {
    const appearance = encodeURIComponent(JSON.stringify({ theme: 'dark', variables: { colorPrimary: '#0b57d0' } }));
    expect(readStart(`#nonce=n-1&style=biking&lat=48.85&lng=2.35&zoom=18&until=1893456000000&locale=fr-CA&pageLocale=de&appearance=${appearance}`)).toEqual({
      nonce: 'n-1',
      style: 'biking',
      center: { lat: 48.85, lng: 2.35 },
      zoom: 18,
      until: 1893456000000,
      search: true,
      locale: 'fr-CA',
      pageLocale: 'de',
      appearance: { theme: 'dark', variables: { colorPrimary: '#0b57d0' } },
    });
  });

  it('hides the search box only for an explicit search=false', () => {
    expect(readStart('#search=false').search).toBe(false);
    expect(readStart('#search=true').search).toBe(true);
    expect(readStart('#search=0').search).toBe(true);
  });

  it('falls back to the defaults for anything that does not read', () => {
    // Without a deadline, the page is taken to wait its default loadTimeout from now.
    const until = expect.closeTo(Date.now() + DEFAULTS.loadTimeout, -3);
    const defaults = { nonce: '', style: DEFAULTS.style, center: DEFAULTS.center, zoom: DEFAULTS.zoom, until, search: true, appearance: DEFAULTS.appearance };
    expect(readStart('#style=night&lat=95&lng=0&zoom=99&until=soon&locale=fran%C3%A7ais&appearance=%7Bbroken')).toEqual(defaults);
    expect(readStart('#appearance=%7B%22theme%22%3A%22night%22%7D')).toEqual(defaults);
    expect(readStart('')).toEqual(defaults);
  });

  it('reads a page language written with an underscore, as pages often write it', () => {
    expect(readStart('#pageLocale=de_AT').pageLocale).toBe('de-AT');
  });

  it('refuses a page without a usable config', () => {
    document.body.innerHTML = '';
    expect(() => readConfig(document)).toThrow('The frame page has no #loc-config.');
    document.body.innerHTML = '<script type="application/json" id="loc-config">{"apiBase":"x","origin":"y","sid":"z","expiresAt":1}</script>';
    expect(() => readConfig(document)).toThrow('#loc-config.expiresAt must be a string; received number.');
  });
});
