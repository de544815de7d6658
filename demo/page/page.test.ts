// @vitest-environment jsdom
/**
 * The page's own HTML offers what the page's script knows of the options: the select of each option
 * lists its values as mount-options.ts does, and every map the script mounts has its element.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLocale, LOCALES, STYLES, THEMES } from './mount-options.ts';

const select = (name: string) => document.querySelector<HTMLSelectElement>(`#controls select[name="${name}"]`)!;
const choices = (name: string) => [...select(name).options].map((option) => ({ value: option.value, text: option.textContent }));

beforeAll(() => {
  const html = readFileSync('demo/public/index.html', 'utf8');
  document.body.innerHTML = html.slice(html.indexOf('<body'), html.lastIndexOf('</body>')).replace(/<script[^>]*><\/script>/g, '');
});

describe('the demo page', () => {
  it('offers the styles and themes, default first, and the languages by their own names after the page’s, then one the map lacks', () => {
    expect(choices('style').map((choice) => choice.value)).toEqual(STYLES);
    expect(choices('theme').map((choice) => choice.value)).toEqual(THEMES);
    const locales = choices('locale');
    expect(locales.slice(0, -1)).toEqual([{ value: '', text: 'page language' }, ...LOCALES.map(({ tag, name }) => ({ value: tag, text: name }))]);
    // The last is a tag the loader takes and the map has no catalogue for: invalid_option, on purpose.
    const missing = locales.at(-1)!.value;
    expect(checkLocale(missing)).toBe(missing);
    expect(LOCALES.map(({ tag }) => tag.split('-')[0])).not.toContain(missing.split('-')[0]);
    expect(select('locale').value).toBe('');
  });

  it('starts the colours at the light theme’s, unset, and names each colour field', () => {
    for (const name of ['colorPrimary', 'colorBackground', 'colorText']) {
      const form = document.getElementById('controls') as HTMLFormElement;
      expect((form.elements.namedItem(`${name}On`) as HTMLInputElement).checked, name).toBe(false);
      expect((form.elements.namedItem(name) as HTMLInputElement).getAttribute('aria-label'), name).toMatch(/colour value$/);
    }
  });

  it('has an element for each theme and language map, and each of its language captions says its language', () => {
    for (const theme of THEMES) expect(document.getElementById(`look-${theme}`), theme).not.toBeNull();
    for (const tag of ['fr', 'ar', 'ja']) {
      expect(document.getElementById(`look-${tag}`), tag).not.toBeNull();
      expect(document.querySelector(`#look-${tag}`)!.parentElement!.querySelector(`figcaption [lang="${tag}"]`), tag).not.toBeNull();
    }
    expect(document.querySelector('figcaption [lang="ar"]')!.getAttribute('dir')).toBe('rtl');
  });
});
