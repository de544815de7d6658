import { describe, expect, it } from 'vitest';
import { STYLE_NAMES } from '../embed/style-names.ts';
import { DEFAULT_LAYERS, layerOrigins, resolveStyles, tileOrigins, tileSettingsFromEnv } from './styles.ts';

describe('map styles', () => {
  it('default to keyless public providers, each with attribution', () => {
    const styles = resolveStyles({ mode: 'online' }, 'https://loc.example');
    for (const style of STYLE_NAMES) {
      expect(styles[style]).toEqual([DEFAULT_LAYERS[style]]);
      expect(styles[style][0].attribution).not.toBe('');
      expect(styles[style][0].url).toMatch(/^https:\/\/.*\{z\}/);
    }
  });

  it('never let a tile server see more than the service origin', () => {
    for (const layer of Object.values(DEFAULT_LAYERS)) expect(['no-referrer', 'strict-origin']).toContain(layer.referrerPolicy);
  });

  it('draw every style from the service itself in offline mode', () => {
    const styles = resolveStyles({ mode: 'offline' }, 'http://localhost:8080/');
    expect(styles.satellite).toHaveLength(1);
    expect(styles.satellite[0].url).toBe('http://localhost:8080/tiles/satellite/{z}/{x}/{y}.png');
    expect(tileOrigins(styles)).toEqual(['http://localhost:8080']);
  });

  it('take per-style providers and a traffic overlay from the environment', () => {
    const settings = tileSettingsFromEnv({
      LOC_TILES_SATELLITE_URL: 'https://imagery.example/{z}/{y}/{x}.jpg',
      LOC_TILES_SATELLITE_ATTRIBUTION: '&copy; Imagery Co',
      LOC_TRAFFIC_OVERLAY_URL: 'https://{s}.traffic.example/{z}/{x}/{y}.png',
    });
    expect(settings.mode).toBe('online');
    const styles = resolveStyles(settings, 'https://loc.example');
    expect(styles.satellite[0]).toMatchObject({ url: 'https://imagery.example/{z}/{y}/{x}.jpg', attribution: '&copy; Imagery Co', referrerPolicy: 'no-referrer' });
    expect(styles.traffic).toHaveLength(2);
    expect(styles.traffic[1]).toMatchObject({ attribution: 'a.traffic.example', overlay: { opacity: 0.9 } });
    expect(styles.streets).toEqual([DEFAULT_LAYERS.streets]);
  });

  it('reject a bad mode or URL template with what was received', () => {
    expect(() => tileSettingsFromEnv({ LOC_TILES: 'cached' })).toThrow('LOC_TILES must be "online" or "offline"; received "cached".');
    expect(() => tileSettingsFromEnv({ LOC_TILES_STREETS_URL: 'tiles.example/{z}/{x}/{y}' })).toThrow(/LOC_TILES_STREETS_URL must be an http\(s\) URL template/);
    expect(() => tileSettingsFromEnv({ LOC_TRAFFIC_OVERLAY_URL: 'https://t.example/{z}/{x}.png' })).toThrow(/\{z\}, \{x\} and \{y\}/);
  });

  it('list the origins to allow in the frame CSP, subdomains expanded', () => {
    const origins = tileOrigins(resolveStyles({ mode: 'online' }, 'https://loc.example'));
    expect(origins).toContain('https://tile.openstreetmap.org');
    expect(origins).toContain('https://server.arcgisonline.com');
    expect(origins).toContain('https://d.basemaps.cartocdn.com');
    expect(origins).toContain('https://c.tile-cyclosm.openstreetmap.fr');
    expect(origins).not.toContain('https://d.tile-cyclosm.openstreetmap.fr');
  });

  it('list the origins of some layers only, for the share page’s streets map', () => {
    const styles = resolveStyles({ mode: 'online', base: { streets: { url: 'https://{s}.tiles.example/{z}/{x}/{y}.png' } } }, 'https://loc.example');
    expect(layerOrigins(styles.streets)).toEqual(['https://a.tiles.example', 'https://b.tiles.example', 'https://c.tiles.example']);
    expect(layerOrigins(resolveStyles({ mode: 'offline' }, 'https://loc.example/').streets)).toEqual(['https://loc.example']);
  });
});
