import { afterEach, describe, expect, it, vi } from 'vitest';
import { changesOf, readControls, type ControlValues } from './controls.ts';
import type { SnippetOptions } from './snippet.ts';

const previous: SnippetOptions = {
  apiUrl: 'http://localhost:8080',
  height: '420px',
  center: { lat: 48.8584, lng: 2.2945 },
  zoom: 17,
  style: 'streets',
  confirm: true,
  renew: false,
  theme: 'light',
};
const values: ControlValues = { height: '420px', lat: '48.8584', lng: '2.2945', zoom: '17', style: 'streets', confirm: true, renew: false, title: '', locale: '', theme: 'light', colorPrimary: '' };

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

  it('take a language, a theme and a primary colour, none for blank fields; a theme the loader refuses keeps the last', () => {
    expect(readControls({ ...values, locale: 'fr', theme: 'auto', colorPrimary: ' #0b57d0 ' }, previous).options).toEqual({ ...previous, locale: 'fr', theme: 'auto', colorPrimary: '#0b57d0' });
    const refused = readControls({ ...values, theme: 'night' }, { ...previous, theme: 'dark' });
    expect(refused.options.theme).toBe('dark');
    expect(refused.problems).toEqual([{ option: 'theme', fields: ['theme'], message: 'appearance.theme must be one of "light", "dark", "auto"; received "night".' }]);
  });

  it('take a title the designer typed, and none for a blank field', () => {
    expect(readControls({ ...values, title: ' Drop-off point ' }, previous).options).toEqual({ ...previous, title: 'Drop-off point' });
    expect(readControls({ ...values, title: ' ' }, { ...previous, title: 'Drop-off point' }).options).toEqual(previous);
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
    // The language and the look are what the map is made with.
    expect(changesOf(previous, { ...previous, locale: 'ar' })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, theme: 'dark' })).toEqual({ ...none, remount: true });
    expect(changesOf(previous, { ...previous, colorPrimary: '#0b57d0' })).toEqual({ ...none, remount: true });
  });
});
