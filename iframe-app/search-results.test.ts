/** The search box's words, in English: distances for people, and what each kind of answer lists and says over its list. */
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchAnswer } from './api.ts';
import { t, useCatalogue } from './i18n.ts';
import { CATALOGUES } from './locales/catalogues.ts';
import { EN } from './locales/en.ts';
import { foundIn, formatDistance, pointFound } from './search-results.ts';

describe('formatDistance', () => {
  afterEach(() => useCatalogue('en', EN));

  it('writes numbers as the frame’s language does', () => {
    useCatalogue('fr', CATALOGUES.fr);
    expect(formatDistance(1916)).toBe('1,9 km');
    expect(formatDistance(8_412_345)).toBe('8\u202f412 km');
    useCatalogue('ar', CATALOGUES.ar);
    expect(formatDistance(344)).toBe('340 م');
  });

  it.each([
    [0, '10 m'], [4, '10 m'], [344, '340 m'], [994, '990 m'], [999, '1 km'], [1000, '1 km'], [1916, '1.9 km'], [9_949, '9.9 km'],
    [10_000, '10 km'], [391_501, '392 km'], [8_412_345, '8,412 km'], [20_015_000, '20,015 km'],
  ])('%d m is %s', (metres, text) => expect(formatDistance(metres)).toBe(text));
});

const code = (loc_code: string, match: 'exact' | 'transposition', distance_m: number, in_area?: boolean) =>
  ({ loc_code, match, latitude: 48.85, longitude: 2.29, distance_m, ...(in_area === undefined ? {} : { in_area }) });

describe('foundIn', () => {
  it('places: name, then region, country, distance and whether outside the area; “no place” when none', () => {
    const answer: SearchAnswer = {
      kind: 'places',
      normalized: null,
      results: [
        { name: 'Lyon', country: 'France', admin: null, latitude: 45.75, longitude: 4.85, distance_m: 1928 },
        { name: 'Lyons', country: 'United States', admin: 'Colorado', latitude: 40.22, longitude: -105.27, distance_m: 8_120_000, in_area: false },
      ],
    };
    expect(foundIn(answer, 'lyon')).toEqual({
      found: [
        { kind: 'place', lat: 45.75, lng: 4.85, label: 'Lyon', detail: 'France · 1.9 km from the map', place: 'Lyon, France', distance: 1928, inArea: undefined },
        {
          kind: 'place', lat: 40.22, lng: -105.27, label: 'Lyons', detail: 'Colorado, United States · 8,120 km from the map · outside the area this site accepts',
          place: 'Lyons, Colorado, United States', distance: 8_120_000, inArea: false,
        },
      ],
      status: '',
    });
    expect(foundIn({ kind: 'places', normalized: null, results: [] }, 'qxz')).toEqual({ found: [], status: t('search.noPlace', { text: 'qxz' }) });
  });

  it('a code near: its one option, no status; far with suggestions: the distance said, each suggestion asked as a question', () => {
    expect(foundIn({ kind: 'code', normalized: 'FR-0RMB-CLY0', results: [code('FR-0RMB-CLY0', 'exact', 1916)] }, 'fr0rmbcly0')).toMatchObject({
      found: [{ kind: 'code', code: 'FR-0RMB-CLY0', exact: true, label: 'FR-0RMB-CLY0', detail: 'Location code · 1.9 km from the map' }],
      status: '',
    });
    const far = foundIn({ kind: 'code', normalized: 'FR-0MRB-CLY0', results: [code('FR-0MRB-CLY0', 'exact', 386_129), code('FR-0RMB-CLY0', 'transposition', 1916)] }, 'x');
    expect(far.found.map(({ label, exact }) => [label, exact])).toEqual([['FR-0MRB-CLY0', true], ['Did you mean FR-0RMB-CLY0?', false]]);
    expect(far.status).toBe(t('search.doubted', { distance: '386 km' }));
  });

  it('a code outside the area, near, with suggestions: asked plainly; a code that names no cell: “did you mean”; none at all: said', () => {
    const outside = foundIn({ kind: 'code', normalized: 'X', results: [code('DE-0000-0000', 'exact', 2000, false), code('FR-0000-0000', 'transposition', 3000, true)] }, 'x');
    expect(outside.status).toBe(t('search.maybe'));
    expect(outside.found[0].detail).toBe('Location code · 2 km from the map · outside the area this site accepts');
    expect(foundIn({ kind: 'code', normalized: 'X', results: [code('MC-0000-X2VW', 'transposition', 300)] }, 'x').status).toBe(t('search.notACode'));
    expect(foundIn({ kind: 'code', normalized: 'X', results: [] }, 'x')).toEqual({ found: [], status: t('search.noCode') });
  });

  it('coordinates: the point to six decimals, and how the pair was read', () => {
    expect(pointFound({ lat: -33.8568, lng: 151.2153, swapped: true })).toEqual({ kind: 'point', lat: -33.8568, lng: 151.2153, label: '-33.856800, 151.215300', detail: t('search.swapped') });
    expect(foundIn({ kind: 'coordinates', normalized: null, results: [{ latitude: 1, longitude: 2, swapped: false }] }, '1 2').found).toEqual([pointFound({ lat: 1, lng: 2, swapped: false })]);
  });
});
