import { afterEach, describe, expect, it } from 'vitest';
import { EN } from './locales/en.ts';
import { directionOf, pickLocale, t, useCatalogue, type Catalogue } from './i18n.ts';

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
