/**
 * Places by name over the real offline places: folding, word starts, the ranking by focus and size,
 * the preferred first, the countries kept, and the duplicates GeoNames lists dropped.
 */
import { describe, expect, it } from 'vitest';
import { PLACES_MAX, foldQuery, searchPlaces } from './place-names.ts';

const names = (found: { name: string; country_code: string }[]) => found.map((p) => `${p.name} ${p.country_code}`);

describe('foldQuery', () => {
  it('drops accents and case, reads strokes as their letters, makes separators one space', () => {
    expect(foldQuery('  São   PAULO ')).toBe('sao paulo');
    expect(foldQuery('Łódź')).toBe('lodz');
    expect(foldQuery("Saint-Denis l’Île")).toBe('saint denis l ile');
    expect(foldQuery('St. Louis')).toBe('st louis');
  });
});

describe('searchPlaces', () => {
  it('matches the start of the name or of a word in it, never the middle of a word', () => {
    expect(names(searchPlaces('ulo'))).not.toContain('São Paulo BR');
    expect(names(searchPlaces('paulo'))).toContain('São Paulo BR');
    expect(names(searchPlaces('kreis 11'))).toContain('Zürich (Kreis 11) CH');
  });

  it('asks two characters at least and no more than a name can have, and lists at most PLACES_MAX', () => {
    expect(searchPlaces('s')).toEqual([]);
    expect(searchPlaces(`sa${' a'.repeat(100)}`)).toEqual([]);
    expect(searchPlaces('sa')).toHaveLength(PLACES_MAX);
    expect(searchPlaces('sa', { limit: 3 })).toHaveLength(3);
  });

  it('without a focus by population; with one, near and big first, a village next door before a far city', () => {
    expect(names(searchPlaces('sa')).slice(0, 2)).toEqual(['São Paulo BR', 'Saint Petersburg RU']);
    const fromLyon = searchPlaces('sa', { focus: { lat: 45.764, lng: 4.8357 } });
    expect(fromLyon[0].distance_m).toBeLessThan(50_000);
    expect(fromLyon.every((p) => p.distance_m !== undefined)).toBe(true);
  });

  it('puts the preferred first, and keeps only the countries asked for', () => {
    const preferred = searchPlaces('paris', { focus: { lat: 48.85, lng: 2.35 }, preferred: (_, __, country) => country === 'CA' });
    expect(names(preferred)[0]).toBe('Paris CA');
    expect(searchPlaces('paris', { only: new Set(['US']) }).every((p) => p.country_code === 'US')).toBe(true);
  });

  it('lists a place GeoNames has twice, under one name a kilometre or two apart, once', () => {
    // Viimsi, Estonia: the municipality and its village, 1 km apart.
    expect(names(searchPlaces('viimsi', { only: new Set(['EE']) }))).toEqual(['Viimsi EE']);
  });
});
