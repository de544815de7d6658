// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../src/embed/options.ts';
import { readConfig, readStart } from './config.ts';

describe('the frame’s start-up input', () => {
  it('reads the start options of the fragment', () => {
    expect(readStart('#nonce=n-1&style=biking&lat=48.85&lng=2.35&zoom=18')).toEqual({
      nonce: 'n-1',
      style: 'biking',
      center: { lat: 48.85, lng: 2.35 },
      zoom: 18,
    });
  });

  it('falls back to the defaults for anything that does not read', () => {
    expect(readStart('#style=night&lat=95&lng=0&zoom=99')).toEqual({ nonce: '', style: DEFAULTS.style, center: DEFAULTS.center, zoom: DEFAULTS.zoom });
    expect(readStart('')).toEqual({ nonce: '', style: DEFAULTS.style, center: DEFAULTS.center, zoom: DEFAULTS.zoom });
  });

  it('refuses a page without a usable config', () => {
    document.body.innerHTML = '';
    expect(() => readConfig(document)).toThrow('The frame page has no #loc-config.');
    document.body.innerHTML = '<script type="application/json" id="loc-config">{"apiBase":"x","origin":"y","sid":"z","expiresAt":1}</script>';
    expect(() => readConfig(document)).toThrow('#loc-config.expiresAt must be a string; received number.');
  });
});
