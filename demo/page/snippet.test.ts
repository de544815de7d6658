import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/embed/options.ts';
import { appearanceOf, integratorSnippet, type SnippetOptions } from './snippet.ts';

const defaults: SnippetOptions = {
  apiUrl: 'http://localhost:8080',
  height: DEFAULTS.height,
  center: DEFAULTS.center,
  zoom: DEFAULTS.zoom,
  style: DEFAULTS.style,
  confirm: DEFAULTS.confirm,
  renew: false,
  search: DEFAULTS.search,
  theme: DEFAULTS.appearance.theme!,
  variables: {},
};

describe('the integrator snippet', () => {
  it('loads the script from the service and mounts with the session token', () => {
    const snippet = integratorSnippet(defaults);
    expect(snippet).toContain('<script src="http://localhost:8080/embed/loc-embed.js"></script>');
    expect(snippet).toContain("LOC.mount('#map', {");
    expect(snippet).toContain('sessionToken: session.session_token');
  });

  it('leaves out options at their defaults', () => {
    const snippet = integratorSnippet(defaults);
    for (const option of ['height:', 'center:', 'zoom:', 'style:', 'confirm:', 'title:', 'search:', 'value:', 'locale:', 'appearance:', 'getSessionToken']) expect(snippet).not.toContain(option);
    expect(snippet).not.toContain('area');
  });

  it('writes the options a designer changed, as valid JavaScript values', () => {
    const snippet = integratorSnippet({
      ...defaults,
      height: '60vh',
      center: { lat: 48.8584, lng: 2.2945 },
      zoom: 18,
      style: 'satellite',
      confirm: false,
      title: 'Drop-off point',
      search: false,
      value: 'FR-0RMB-CLY0',
    });
    expect(snippet).toContain("height: '60vh',");
    expect(snippet).toContain('center: { lat: 48.8584, lng: 2.2945 },');
    expect(snippet).toContain('zoom: 18,');
    expect(snippet).toContain("style: 'satellite',");
    expect(snippet).toContain('confirm: false,');
    expect(snippet).toContain("title: 'Drop-off point',");
    expect(snippet).toContain('search: false,');
    expect(snippet).toContain("value: 'FR-0RMB-CLY0',");
    // Run the script part against a fake LOC: it must mount with exactly these options.
    const script = snippet.slice(snippet.indexOf('<script>\n') + 9, snippet.lastIndexOf('</script>'));
    const mounts: unknown[] = [];
    const session = { session_token: 't.k' };
    new Function('LOC', 'createSession', script)({ mount: (...args: unknown[]) => mounts.push(args) }, () => ({ then: (next: (s: unknown) => void) => next(session) }));
    expect(mounts[0]).toEqual(['#map', expect.objectContaining({ sessionToken: 't.k', height: '60vh', zoom: 18, style: 'satellite', confirm: false, title: 'Drop-off point', search: false, value: 'FR-0RMB-CLY0' })]);
    const callbacks = (mounts[0] as [string, Record<string, unknown>])[1];
    // No preview without confirmation: the snippet writes no onPreview that would never be called.
    expect(typeof callbacks.onClear).toBe('function');
    expect(callbacks.onPreview).toBeUndefined();
  });

  it('writes a title only when the designer set one', () => {
    expect(integratorSnippet(defaults)).not.toContain('title:');
    expect(integratorSnippet({ ...defaults, title: "Drop-off point: Sam's door" })).toContain("title: 'Drop-off point: Sam\\'s door',");
  });

  it('writes a language, and appearance without what is at its default', () => {
    const run = (options: SnippetOptions) => {
      const snippet = integratorSnippet(options);
      const script = snippet.slice(snippet.indexOf('<script>\n') + 9, snippet.lastIndexOf('</script>'));
      const mounts: [string, Record<string, unknown>][] = [];
      new Function('LOC', 'createSession', script)({ mount: (...args: [string, Record<string, unknown>]) => mounts.push(args) }, () => ({ then: (next: (s: unknown) => void) => next({ session_token: 't.k' }) }));
      return { snippet, mounted: mounts[0][1] };
    };
    const rtl = run({ ...defaults, locale: 'ar', theme: 'dark' });
    expect(rtl.snippet).toContain("locale: 'ar',");
    expect(rtl.mounted).toMatchObject({ locale: 'ar', appearance: { theme: 'dark' } });
    expect(rtl.mounted.appearance).not.toHaveProperty('variables');

    const variables = { colorPrimary: '#0b57d0', fontFamily: "'Noto Sans', sans-serif" };
    const branded = run({ ...defaults, variables });
    expect(branded.mounted.appearance).toEqual({ variables });
    expect(branded.snippet).not.toContain('theme:');
    expect(branded.snippet).toContain("variables: { colorPrimary: '#0b57d0', fontFamily: '\\'Noto Sans\\', sans-serif' },");
    expect(appearanceOf(defaults)).toBeUndefined();
    expect(appearanceOf({ theme: 'auto', variables })).toEqual({ theme: 'auto', variables });
  });

  it('handles a preview with confirmation, and a clear', () => {
    const snippet = integratorSnippet(defaults);
    expect(snippet).toContain('    onPreview(result) {');
    expect(snippet).toContain('    onClear() {');
  });

  it('says what area the session was asked for, beside the server call, as JSON the API takes', () => {
    const area = { countries: ['FR', 'BE'], bounds: { south: 48, west: 1, north: 51, east: 5 } };
    const snippet = integratorSnippet({ ...defaults, area });
    const line = snippet.split('\n').find((text) => text.includes("session's area"))!;
    expect(line.startsWith('// ')).toBe(true);
    expect(JSON.parse(line.slice(line.indexOf('{'), line.lastIndexOf('}') + 1))).toEqual(area);
    expect(snippet.indexOf(line)).toBeLessThan(snippet.indexOf('function mount'));
  });

  it('quotes a height that holds quotes', () => {
    expect(integratorSnippet({ ...defaults, height: "calc(100vh - 'x')" })).toContain("height: 'calc(100vh - \\'x\\')',");
  });

  it('shows renewal or remounting on expiry, as chosen', () => {
    expect(integratorSnippet(defaults)).toContain("if (error.code === 'session_expired') createSession().then(mount);");
    const renewing = integratorSnippet({ ...defaults, renew: true });
    expect(renewing).toContain('getSessionToken: () => createSession().then((next) => next.session_token),');
    expect(renewing).not.toContain("error.code === 'session_expired'");
  });
});
