import { afterEach, describe, expect, it, vi } from 'vitest';
import { changesOf, readArea, readControls, sameArea, type ControlValues } from './controls.ts';
import type { SnippetOptions } from './snippet.ts';

const previous: SnippetOptions = {
  apiUrl: 'http://localhost:8080',
  height: '420px',
  center: { lat: 48.8584, lng: 2.2945 },
  zoom: 17,
  style: 'streets',
  confirm: true,
  renew: false,
  search: true,
  theme: 'light',
  variables: {},
};
const NO_AREA = { countries: '', south: '', west: '', north: '', east: '' };
const values: ControlValues = {
  height: '420px',
  lat: '48.8584',
  lng: '2.2945',
  zoom: '17',
  style: 'streets',
  confirm: true,
  renew: false,
  title: '',
  search: true,
  value: '',
  ...NO_AREA,
  locale: '',
  theme: 'light',
  colorPrimary: '',
  colorBackground: '',
  colorText: '',
  fontFamily: '',
  borderRadius: '',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the playground controls', () => {
  it('read into mount options', () => {
    const { options, problems } = readControls({ ...values, lat: '-33.8568', lng: '151.2153', zoom: '19', style: 'satellite', confirm: false }, previous);
    expect(problems).toEqual([]);
    expect(options).toEqual({ ...previous, center: { lat: -33.8568, lng: 151.2153 }, zoom: 19, style: 'satellite', confirm: false });
  });

  it('keep the last good value and show the loader’s own message for a bad one', () => {
    const { options, problems } = readControls({ ...values, lat: '123', zoom: '', height: ' ' }, previous);
    expect(options.center).toEqual(previous.center);
    expect(options.zoom).toBe(previous.zoom);
    expect(options.height).toBe(previous.height);
    expect(problems).toEqual([
      { option: 'height', fields: ['height'], message: 'height must be a CSS length such as "400px"; received "".' },
      { option: 'center', fields: ['lat'], message: 'center must be { lat, lng } or [lat, lng] with lat from -90 to 90 and lng from -180 to 180; received [123,2.2945].' },
      { option: 'zoom', fields: ['zoom'], message: 'zoom must be an integer from 0 to 20; received NaN.' },
    ]);
  });

  it('name the fields at fault, so the page can mark them: of a centre, only the coordinates out of range', () => {
    expect(readControls({ ...values, lng: '181' }, previous).problems.map((problem) => problem.fields)).toEqual([['lng']]);
    expect(readControls({ ...values, lat: '', lng: '-200' }, previous).problems.map((problem) => problem.fields)).toEqual([['lat', 'lng']]);
    expect(readControls({ ...values, style: 'night' }, previous).problems.map((problem) => problem.fields)).toEqual([['style']]);
  });

  it('check a height the way LOC.mount does, so a height it would throw on never reaches the map or the snippet', () => {
    // The loader asks the browser's CSS.supports, which Node lacks: a stand-in that knows two lengths.
    vi.stubGlobal('CSS', { supports: (property: string, value: string) => property === 'height' && ['300px', '60vh'].includes(value) });
    const bad = readControls({ ...values, height: 'abc' }, previous);
    expect(bad.options).toEqual(previous);
    expect(bad.problems).toEqual([{ option: 'height', fields: ['height'], message: 'height must be a CSS length such as "400px"; received "abc".' }]);
    expect(readControls({ ...values, height: ' 60vh ' }, previous)).toEqual({ options: { ...previous, height: '60vh' }, problems: [] });
  });

  it('take a title the designer typed, and none for a blank field', () => {
    expect(readControls({ ...values, title: ' Drop-off point ' }, previous).options).toEqual({ ...previous, title: 'Drop-off point' });
    expect(readControls({ ...values, title: ' ' }, { ...previous, title: 'Drop-off point' }).options).toEqual(previous);
  });

  it('take the search box as ticked, and a code to open on as typed, none for a blank field', () => {
    expect(readControls({ ...values, search: false }, previous).options).toEqual({ ...previous, search: false });
    // The loader takes any non-blank text; whether it is a code is the service's to say (onError).
    expect(readControls({ ...values, value: ' fr-0rmb-cly0 ' }, previous)).toEqual({ options: { ...previous, value: 'fr-0rmb-cly0' }, problems: [] });
    expect(readControls({ ...values, value: 'not a code' }, previous).problems).toEqual([]);
    expect(readControls({ ...values, value: '  ' }, { ...previous, value: 'FR-0RMB-CLY0' }).options).toEqual(previous);
  });

  it('read an area as typed, for the service to judge: countries split at commas and spaces, the edges given', () => {
    expect(readArea(NO_AREA)).toBeUndefined();
    expect(readArea({ ...NO_AREA, countries: ' FR, be  DE,' })).toEqual({ countries: ['FR', 'be', 'DE'] });
    expect(readArea({ ...NO_AREA, south: '48', west: '1', north: '51.5', east: '-5' })).toEqual({ bounds: { south: 48, west: 1, north: 51.5, east: -5 } });
    // A box with an edge missing goes as it is: the service names the edge (bounds.east).
    expect(readArea({ ...NO_AREA, countries: 'FR', south: '48', north: '51' })).toEqual({ countries: ['FR'], bounds: { south: 48, north: 51 } });
    expect(readControls({ ...values, countries: 'FR,BE' }, previous)).toEqual({ options: { ...previous, area: { countries: ['FR', 'BE'] } }, problems: [] });
    expect(sameArea(readArea({ ...NO_AREA, countries: 'FR BE' }), { countries: ['FR', 'BE'] })).toBe(true);
    expect(sameArea(undefined, { countries: ['FR'] })).toBe(false);
    expect(sameArea(undefined, undefined)).toBe(true);
  });

  it('take a language, none for the page’s; a theme; the variables set, each checked on its own as the loader does', () => {
    expect(readControls({ ...values, locale: 'ar', theme: 'dark' }, previous).options).toEqual({ ...previous, locale: 'ar', theme: 'dark' });
    expect(readControls({ ...values, locale: '' }, { ...previous, locale: 'ar' }).options).toEqual(previous);
    const set = readControls({ ...values, colorPrimary: '#0b57d0', fontFamily: ' Georgia, serif ', borderRadius: '2px' }, previous);
    expect(set).toEqual({ options: { ...previous, variables: { colorPrimary: '#0b57d0', fontFamily: 'Georgia, serif', borderRadius: '2px' } }, problems: [] });
    // What the loader cannot check (a font, a length, a contrast) the map does (invalid_option): no problem here.
    expect(readControls({ ...values, borderRadius: 'round' }, previous).problems).toEqual([]);

    const long = 'x'.repeat(201);
    const bad = readControls({ ...values, locale: 'en_GB', theme: 'sepia', fontFamily: long, colorText: '#000000' }, { ...previous, locale: 'fr', variables: { fontFamily: 'serif' } });
    expect(bad.options).toEqual({ ...previous, locale: 'fr', variables: { colorText: '#000000', fontFamily: 'serif' } });
    expect(bad.problems).toEqual([
      { option: 'appearance.variables.fontFamily', fields: ['fontFamily'], message: `appearance.variables.fontFamily must be a string of at most 200 characters; received "${'x'.repeat(59)}….` },
      { option: 'locale', fields: ['locale'], message: 'locale must be a BCP 47 language tag such as "fr" or "pt-BR"; received "en_GB".' },
      { option: 'appearance.theme', fields: ['theme'], message: 'appearance.theme must be one of "light", "dark", "auto"; received "sepia".' },
    ]);
  });

  it('tell what the map must do about a change', () => {
    const none = { remount: false, view: false, style: false };
    expect(changesOf(previous, previous)).toEqual(none);
    expect(changesOf(previous, { ...previous, style: 'biking', zoom: 3 })).toEqual({ ...none, style: true, view: true });
    expect(changesOf(previous, { ...previous, center: { lat: 1, lng: 2 } })).toEqual({ ...none, view: true });
    expect(changesOf(previous, { ...previous, height: '300px' })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, confirm: false })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, renew: true })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, title: 'Drop-off point' })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, search: false })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, value: 'FR-0RMB-CLY0' })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, locale: 'ar' })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, theme: 'auto' })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, variables: { colorText: '#000000' } })).toEqual({ ...none, remount: true });
  });
});
