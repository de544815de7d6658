import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/embed/options.ts';
import { integratorSnippet, type SnippetOptions } from './snippet.ts';

const defaults: SnippetOptions = {
  apiUrl: 'http://localhost:8080',
  height: DEFAULTS.height,
  center: DEFAULTS.center,
  zoom: DEFAULTS.zoom,
  style: DEFAULTS.style,
  confirm: DEFAULTS.confirm,
  renew: false,
  theme: 'light',
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
    for (const option of ['height:', 'center:', 'zoom:', 'style:', 'confirm:', 'title:', 'locale:', 'appearance:', 'getSessionToken']) expect(snippet).not.toContain(option);
  });

  it('writes the language and the appearance the designer chose', () => {
    const snippet = integratorSnippet({ ...defaults, locale: 'ar', theme: 'dark', colorPrimary: '#0b57d0' });
    expect(snippet).toContain("locale: 'ar',");
    expect(snippet).toContain("appearance: { theme: 'dark', variables: { colorPrimary: '#0b57d0' } },");
    expect(integratorSnippet({ ...defaults, colorPrimary: 'teal' })).toContain("appearance: { variables: { colorPrimary: 'teal' } },");
  });

  it('writes the options a designer changed, as valid JavaScript values', () => {
    const snippet = integratorSnippet({ ...defaults, height: '60vh', center: { lat: 48.8584, lng: 2.2945 }, zoom: 18, style: 'satellite', confirm: false, title: 'Drop-off point' });
    expect(snippet).toContain("height: '60vh',");
    expect(snippet).toContain('center: { lat: 48.8584, lng: 2.2945 },');
    expect(snippet).toContain('zoom: 18,');
    expect(snippet).toContain("style: 'satellite',");
    expect(snippet).toContain('confirm: false,');
    expect(snippet).toContain("title: 'Drop-off point',");
    // Run the script part against a fake LOC: it must mount with exactly these options.
    const script = snippet.slice(snippet.indexOf('<script>\n') + 9, snippet.lastIndexOf('</script>'));
    const mounts: unknown[] = [];
    const session = { session_token: 't.k' };
    new Function('LOC', 'createSession', script)({ mount: (...args: unknown[]) => mounts.push(args) }, () => ({ then: (next: (s: unknown) => void) => next(session) }));
    expect(mounts[0]).toEqual(['#map', expect.objectContaining({ sessionToken: 't.k', height: '60vh', zoom: 18, style: 'satellite', confirm: false, title: 'Drop-off point' })]);
  });

  it('writes a title only when the designer set one', () => {
    expect(integratorSnippet(defaults)).not.toContain('title:');
    expect(integratorSnippet({ ...defaults, title: "Drop-off point: Sam's door" })).toContain("title: 'Drop-off point: Sam\\'s door',");
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
