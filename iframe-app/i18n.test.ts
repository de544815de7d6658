// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EN } from './locales/en.ts';
import { currentLocale, directionOf, localiseDocument, pickLocale, t, useCatalogue, whenCatalogue, type Catalogue } from './i18n.ts';

describe('t', () => {
  afterEach(() => useCatalogue('en', EN));

  it('fills placeholders, and leaves one without a value as written', () => {
    expect(t('panel.openLabel', { code: 'FR-0RMB-CQXT' })).toBe('Open FR-0RMB-CQXT in a new tab');
    expect(t('announce.chosen', { code: 'FR-0RMB-CQXT' })).toBe('Chosen: FR-0RMB-CQXT, {address}.');
  });

  it('picks the plural form of the language for {count}', () => {
    expect(t('move.cells', { count: 1 })).toBe('1 cell');
    expect(t('move.cells', { count: 3 })).toBe('3 cells');
  });

  it('speaks the catalogue in use, and writes numbers as its language does', () => {
    useCatalogue('de', { ...EN, 'move.zoom': 'Zoomstufe {zoom} von {max}.' } as Catalogue);
    expect(t('move.zoom', { zoom: 18, max: 1000 })).toBe('Zoomstufe 18 von 1.000.');
  });
});

describe('pickLocale', () => {
  it('takes the integrator’s locale, exact or by its base language', () => {
    expect(pickLocale('fr', 'de')).toEqual({ locale: 'fr' });
    expect(pickLocale('fr-CA', 'de')).toEqual({ locale: 'fr' });
    expect(pickLocale('en-xa', undefined)).toEqual({ locale: 'en-XA' });
  });

  it('falls back to the page’s language, then English; only the integrator’s own locale is reported', () => {
    expect(pickLocale('tlh', 'de-AT')).toEqual({ locale: 'de', unsupported: 'tlh' });
    expect(pickLocale('tlh', 'sw')).toEqual({ locale: 'en', unsupported: 'tlh' });
    expect(pickLocale(undefined, 'ja-JP')).toEqual({ locale: 'ja' });
    expect(pickLocale(undefined, 'sw-KE')).toEqual({ locale: 'en' });
    expect(pickLocale(undefined, undefined)).toEqual({ locale: 'en' });
  });
});

describe('directionOf', () => {
  it('is right to left for Arabic, whatever its region', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('ar-EG')).toBe('rtl');
    expect(directionOf('fr')).toBe('ltr');
  });
});

describe('whenCatalogue', () => {
  const SCRIPT = 'https://loc.example/embed/frame.js?v=abc123';
  afterEach(() => {
    useCatalogue('en', EN);
    vi.unstubAllGlobals();
  });
  const loaded = (tag: Parameters<typeof whenCatalogue>[0]) => new Promise<void>((done) => whenCatalogue(tag, SCRIPT, done));

  it('goes on at once in English, which frame.js carries, asking nothing', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    let went = false;
    whenCatalogue('en', SCRIPT, () => (went = true));
    expect(went).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('fetches another language beside frame.js under its version, English under it for a key it lacks', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ 'panel.confirm': 'Utiliser cet emplacement' })));
    vi.stubGlobal('fetch', fetchMock);
    await loaded('fr');
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe('https://loc.example/embed/locales/fr.json?v=abc123');
    expect(currentLocale()).toBe('fr');
    expect(t('panel.confirm')).toBe('Utiliser cet emplacement');
    expect(t('panel.copy')).toBe('Copy code');
  });

  it('goes on in English when the catalogue does not come', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('not found', { status: 404 })));
    await loaded('de');
    expect(currentLocale()).toBe('en');
  });
});

describe('localiseDocument', () => {
  afterEach(() => useCatalogue('en', EN));

  it('writes lang, dir, the title and every marked text and attribute', () => {
    document.body.innerHTML = '<p data-i18n="testMode.badge">Test mode</p><div data-i18n-aria-label="map.label" data-i18n-title="control.locate"></div>';
    useCatalogue('ar', { ...EN, 'testMode.badge': 'وضع الاختبار', 'map.label': 'اختر موقعًا', 'control.locate': 'إظهار موقعي', 'frame.title': 'اختر موقعًا' } as Catalogue);
    localiseDocument(document);
    expect([document.documentElement.lang, document.documentElement.dir, document.title]).toEqual(['ar', 'rtl', 'اختر موقعًا']);
    expect(document.querySelector('p')!.textContent).toBe('وضع الاختبار');
    expect(document.querySelector('div')!.getAttribute('aria-label')).toBe('اختر موقعًا');
    expect(document.querySelector('div')!.getAttribute('title')).toBe('إظهار موقعي');
  });
});
