// @vitest-environment jsdom
/**
 * `<loc-picker>` as a map with events, on loc-js's fake `LOC`: what it mounts from its attributes and
 * properties, the events its map's callbacks become, its value both ways, and its map across attribute
 * changes, moves and removal. jsdom has no form half of ElementInternals, so the element is no form
 * field here (as in integrators' component tests); the form field itself, in a real browser, is
 * e2e/picker.spec.ts's.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeLoc, type FakeLoc } from '../../packages/loc-js/src/fake-loc.ts';
import { defineLocPicker } from './picker-element.ts';
import type { LocPickerElement } from './picker-types.ts';

let LOC: FakeLoc;
let sessions: number;
let heard: { type: string; detail: unknown; value: string }[];

/** Lets the session, the script's promise and the element's microtasks settle. */
const settle = () => new Promise((done) => setTimeout(done, 0));

async function field(markup = '<loc-picker></loc-picker>'): Promise<LocPickerElement> {
  document.body.innerHTML = `<label for="point">Delivery point</label>${markup}<div id="elsewhere"></div>`;
  const picker = document.querySelector('loc-picker')!;
  picker.getSessionToken = () => `sid${++sessions}.secret`;
  for (const type of ['loc-ready', 'loc-select', 'loc-preview', 'loc-clear', 'loc-error', 'loc-load-error', 'change', 'input']) {
    picker.addEventListener(type, (event) => {
      heard.push({ type, detail: (event as CustomEvent).detail, value: picker.value });
      // Heard here: not for the console as well.
      if (type === 'loc-load-error') event.preventDefault();
    });
  }
  await settle();
  return picker;
}

beforeAll(() => defineLocPicker(async () => LOC));

beforeEach(() => {
  LOC = createFakeLoc();
  sessions = 0;
  heard = [];
});

describe('<loc-picker>', () => {
  it('mounts one map into its shadow root with its attributes, its label as the frame’s title and its value to open on', async () => {
    const picker = await field('<loc-picker id="point" zoom="17" center="48.8584,2.2945" map-style="satellite" theme="dark" search="false" value="FR-0RMB-CLY0"></loc-picker>');
    expect(LOC.mounts).toHaveLength(1);
    const { target, options } = LOC.lastMount();
    expect(target.getRootNode()).toBe(picker.shadowRoot);
    expect(options).toMatchObject({ sessionToken: 'sid1.secret', zoom: 17, center: [48.8584, 2.2945], style: 'satellite', appearance: { theme: 'dark' }, search: false, value: 'FR-0RMB-CLY0' });
    expect(picker.value).toBe('FR-0RMB-CLY0');
    expect(picker.iframe).toBe(LOC.lastMount().handle.iframe);
  });

  it('turns the map’s callbacks into its events, and a visitor’s choice or clear into input and change', async () => {
    const picker = await field();
    const mount = LOC.lastMount();
    const ready = mount.ready();
    const preview = mount.preview('FR-0RMB-CLY0');
    const chosen = mount.select('FR-0RMB-CLY0');
    mount.select('FR-0RMB-CQXT', 'page');
    mount.clear();
    expect(heard.map(({ type, value }) => [type, value])).toEqual([
      ['loc-ready', ''],
      ['loc-preview', ''],
      ['loc-select', 'FR-0RMB-CLY0'],
      ['input', 'FR-0RMB-CLY0'],
      ['change', 'FR-0RMB-CLY0'],
      ['loc-select', 'FR-0RMB-CQXT'],
      ['loc-clear', ''],
      ['input', ''],
      ['change', ''],
    ]);
    expect(heard.slice(0, 3).map(({ detail }) => detail)).toEqual([ready, preview, chosen]);
    expect(picker.value).toBe('');
  });

  it('chooses what the page sets as its value, written canonically at once, and keeps the value it had when the map refuses the code', async () => {
    const picker = await field();
    const mount = LOC.lastMount();
    mount.ready();
    picker.value = ' fr 0rmb cly0 ';
    expect(picker.value).toBe('FR-0RMB-CLY0');
    picker.value = '';
    expect(mount.calls.map(({ method, args }) => [method, ...args])).toEqual([['select', 'FR-0RMB-CLY0'], ['clear']]);
    expect(picker.value).toBe('');
    await settle();
    picker.value = 'FR-0RMB-CLY0';
    await settle();
    // The fake refuses a string that is no code with invalid_code, as the map does.
    picker.value = 'nonsense';
    await settle();
    expect(picker.value).toBe('FR-0RMB-CLY0');
    expect(heard.filter(({ type }) => type === 'loc-error')).toHaveLength(1);
  });

  it('switches map-style in place, mounts again on the same session for another attribute, its appearance or a move, and destroys its map once removed', async () => {
    const picker = await field();
    picker.setAttribute('map-style', 'biking');
    expect(LOC.lastMount().calls).toEqual([{ method: 'setStyle', args: ['biking'] }]);
    picker.setAttribute('height', '300px');
    picker.setAttribute('zoom', '12');
    picker.appearance = { theme: 'auto' };
    await settle();
    expect(LOC.mounts.map((mount) => [mount.options.sessionToken, mount.options.height, mount.options.appearance, mount.isStopped])).toEqual([
      ['sid1.secret', undefined, undefined, true],
      ['sid1.secret', '300px', { theme: 'auto' }, false],
    ]);
    document.getElementById('elsewhere')!.append(picker);
    await settle();
    expect(LOC.mounts.map((mount) => mount.options.sessionToken)).toEqual(['sid1.secret', 'sid1.secret', 'sid1.secret']);
    picker.remove();
    await settle();
    expect(LOC.mounts.every((mount) => mount.isStopped)).toBe(true);
    await expect(picker.select('FR-0RMB-CLY0')).rejects.toMatchObject({ name: 'AbortError' });
    expect(sessions).toBe(1);
  });

  it('tells a map it could not mount in loc-load-error, naming the attribute’s value', async () => {
    await field('<loc-picker zoom="far"></loc-picker>');
    expect(heard.map(({ type, detail }) => [type, (detail as Error).message])).toEqual([['loc-load-error', '<loc-picker>: LOC.mount: options.zoom must be an integer from 0 to 20; received "far".']]);
    expect(LOC.mounts).toHaveLength(0);
  });
});
