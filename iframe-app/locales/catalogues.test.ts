/**
 * The catalogues are complete: each has exactly English's keys, each message the placeholders of
 * English's, each counted message the plural forms its language needs, and each file says where its
 * words come from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../i18n.ts';
import { CATALOGUES } from './catalogues.ts';
import { EN, type PluralMessage } from './en.ts';

const placeholders = (text: string) => new Set([...text.matchAll(/\{(\w+)\}/g)].map(([, name]) => name));
const forms = (message: string | PluralMessage) => (typeof message === 'string' ? [message] : Object.values(message));

describe('the catalogues', () => {
  it('are the locales the frame offers, English aside, one file each', () => {
    expect(['en', ...Object.keys(CATALOGUES)].sort()).toEqual([...LOCALES].sort());
    const files = readdirSync(new URL('.', import.meta.url)).filter((name) => /^[a-z]{2}(-[A-Z]{2})?\.ts$/.test(name));
    // en-XA is made from English (pseudo.ts), not written.
    expect(files.map((name) => name.slice(0, -3)).sort()).toEqual(LOCALES.filter((tag) => tag !== 'en-XA').sort());
  });

  it.each(Object.keys(CATALOGUES))('%s has exactly the English keys', (tag) => {
    expect(Object.keys(CATALOGUES[tag as keyof typeof CATALOGUES]).sort()).toEqual(Object.keys(EN).sort());
  });

  it.each(Object.keys(CATALOGUES))('%s has the placeholders of each English message, and plural forms where English counts', (tag) => {
    const catalogue = CATALOGUES[tag as keyof typeof CATALOGUES];
    const needed = new Intl.PluralRules(tag).resolvedOptions().pluralCategories;
    for (const [key, english] of Object.entries(EN)) {
      const message: string | PluralMessage = catalogue[key as keyof typeof EN];
      const wanted = new Set(forms(english).flatMap((text) => [...placeholders(text)]));
      expect(typeof message, `${tag} ${key}`).toBe(typeof english);
      // A counted form may leave its number unsaid (Arabic says "one cell", "two cells" in words);
      // together the forms use every placeholder, and none that English does not have.
      const used = forms(message).map(placeholders);
      for (const names of used) for (const name of names) expect(wanted, `${tag} ${key}: {${name}}`).toContain(name);
      expect(new Set(used.flatMap((names) => [...names])), `${tag} ${key}`).toEqual(wanted);
      if (typeof message !== 'string') for (const category of needed) expect(message, `${tag} ${key}: ${category}`).toHaveProperty(category);
    }
  });

  it('each say where their words come from', () => {
    for (const tag of LOCALES.filter((tag) => tag !== 'en' && tag !== 'en-XA')) {
      const source = readFileSync(new URL(`./${tag}.ts`, import.meta.url), 'utf8');
      expect(source.slice(0, source.indexOf('*/')), tag).toMatch(/Source:\s.*?\b(translated|written)\b/s);
    }
  });

  it('include a pseudo-locale that marks every message and keeps its placeholders', () => {
    const pseudo = CATALOGUES['en-XA'];
    expect(pseudo['panel.openLabel']).toBe('[Óþéñ {code} íñ à ñéŵ ŧàƀ]');
    expect(pseudo['move.cells']).toEqual({ one: '[{count} çéĺĺ]', other: '[{count} çéĺĺš]' });
  });
});
