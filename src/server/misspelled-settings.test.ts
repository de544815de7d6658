/** Mistyped settings: a warning that names the setting meant, and silence for what is no typo. */
import { describe, expect, it } from 'vitest';
import { misspelledSettings } from './misspelled-settings.ts';

describe('misspelledSettings', () => {
  it('warns of a LOC_ variable one or two letters from a setting, and names the setting', () => {
    expect(misspelledSettings({ LOC_PUBLICURL: 'https://loc.example', LOC_TILE: 'offline', LOC_TILES_STREETS_UR: 'x', LOC_DATADIR: './data' })).toEqual([
      'warning: LOC_PUBLICURL is not a loc setting and is ignored; did you mean LOC_PUBLIC_URL?',
      'warning: LOC_TILE is not a loc setting and is ignored; did you mean LOC_TILES?',
      'warning: LOC_TILES_STREETS_UR is not a loc setting and is ignored; did you mean LOC_TILES_STREETS_URL?',
      'warning: LOC_DATADIR is not a loc setting and is ignored; did you mean LOC_DATA_DIR?',
    ]);
  });

  it('leaves alone the settings themselves, variables near none of them (the demo\'s, which npm start sets beside them), and other prefixes', () => {
    const demo = { LOC_DEMO_PORT: '5174', LOC_DEMO_ORIGIN: 'x', LOC_API_URL: 'x', LOC_API_PUBLIC_URL: 'x', LOC_DEMO_API_KEY: 'x', LOC_DEMO_KEY_FILE: 'x' };
    const env = { LOC_DATA_DIR: '/srv/loc', LOC_TRAFFIC_OVERLAY_ATTRIBUTION: 'x', LOC_STRESS: 'full', LOC_SOMETHING_ELSE: '1', PORTS: '1', HOST: 'x', ...demo };
    expect(misspelledSettings(env)).toEqual([]);
  });
});
