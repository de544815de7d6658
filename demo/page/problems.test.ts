// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ControlProblem } from './controls.ts';
import { pageProblems, showControlProblems } from './problems.ts';

const HEIGHT: ControlProblem = { option: 'height', fields: ['height'], message: 'height must be a CSS length such as "400px"; received "abc".' };
const CENTER: ControlProblem = { option: 'center', fields: ['lat', 'lng'], message: 'center must be { lat, lng } …; received [95,200].' };

let form: HTMLFormElement;
let list: HTMLElement;
const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
/** What a screen reader reads as a field's description: the text of the elements it names. */
const description = (name: string) =>
  (field(name).getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent).join(' ');

beforeEach(() => {
  // The real page, without its scripts: the test finds the form and the region where the demo does.
  const html = readFileSync('demo/public/index.html', 'utf8');
  document.body.innerHTML = html.slice(html.indexOf('<body'), html.lastIndexOf('</body>')).replace(/<script[^>]*><\/script>/g, '');
  form = document.getElementById('controls') as HTMLFormElement;
  list = document.getElementById('control-problems')!;
});

describe('the playground’s problems', () => {
  it('mark each field at fault as invalid, described by its message, and leave the others alone', () => {
    showControlProblems(form, list, [HEIGHT, CENTER]);
    expect(list.getAttribute('role')).toBe('alert');
    expect([...list.children].map((item) => item.textContent)).toEqual([HEIGHT.message, CENTER.message]);
    for (const name of ['height', 'lat', 'lng']) expect(field(name).getAttribute('aria-invalid')).toBe('true');
    expect(description('height')).toBe(HEIGHT.message);
    expect(description('lat')).toBe(CENTER.message);
    expect(description('lng')).toBe(CENTER.message);
    for (const name of ['zoom', 'style', 'confirm', 'renew', 'search', 'value', 'countries', 'south']) {
      expect(field(name).hasAttribute('aria-invalid')).toBe(false);
      expect(field(name).hasAttribute('aria-describedby')).toBe(false);
    }
  });

  it('unmark a field once it reads, and empty the region when all do', () => {
    showControlProblems(form, list, [HEIGHT, CENTER]);
    showControlProblems(form, list, [CENTER]);
    expect(field('height').hasAttribute('aria-invalid')).toBe(false);
    expect(field('height').hasAttribute('aria-describedby')).toBe(false);
    expect(field('lat').getAttribute('aria-invalid')).toBe('true');
    showControlProblems(form, list, []);
    expect(list.children).toHaveLength(0);
    for (const name of ['lat', 'lng']) expect(field(name).hasAttribute('aria-invalid')).toBe(false);
  });

  it('give a part of an option a message id of its own, which its field names', () => {
    const theme: ControlProblem = { option: 'appearance.theme', fields: ['theme'], message: 'appearance.theme must be one of "light", "dark", "auto"; received "sepia".' };
    showControlProblems(form, list, [theme]);
    expect(list.firstElementChild!.id).toBe('problem-appearance-theme');
    expect(description('theme')).toBe(theme.message);
  });

  it('leave the same messages in place as the designer types on, so they are not announced again', () => {
    showControlProblems(form, list, [HEIGHT]);
    const shown = list.firstElementChild;
    showControlProblems(form, list, [{ ...HEIGHT }]);
    expect(list.firstElementChild).toBe(shown);
    showControlProblems(form, list, [{ ...HEIGHT, message: 'height must be …; received "abcd".' }]);
    expect(list.firstElementChild).not.toBe(shown);
  });
});

describe('the page’s banner', () => {
  it('shows each part’s problem until that part succeeds, and hides when none is left', () => {
    const banner = document.getElementById('problem')!;
    const report = pageProblems(banner);
    expect(banner.hidden).toBe(true);
    report('playground', 'Cannot create a session for the playground: down.');
    report('expiry', 'Cannot create a session for the expiry map: down.');
    expect(banner.hidden).toBe(false);
    expect(banner.textContent).toBe('Cannot create a session for the playground: down. Cannot create a session for the expiry map: down.');
    // The expiry map remounted: its line goes, the playground's stays.
    report('expiry', null);
    expect(banner.textContent).toBe('Cannot create a session for the playground: down.');
    report('playground', null);
    expect(banner.hidden).toBe(true);
    expect(banner.textContent).toBe('');
  });
});
