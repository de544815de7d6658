/**
 * The frame's languages. Every string the visitor reads or hears comes from `t(key, vars)`, looked up
 * in the catalogue of the language the frame speaks: English (locales/en.ts, bundled) until
 * `useCatalogue` switches to another, loaded on demand. Which language that is — the integrator's
 * `locale`, else the page's — is `pickLocale`'s to say.
 */
import { EN, type Catalogue, type MessageKey, type PluralMessage } from './locales/en.ts';

export type { Catalogue, MessageKey, PluralMessage };

/** Values for a message's `{placeholders}`; numbers are written as the language writes them. */
export type MessageVars = Record<string, string | number>;

/**
 * The languages the frame has a catalogue for, English first. `en-XA` is a pseudo-locale (English,
 * accented and bracketed): a test mounts with it to find any string that bypasses the catalogues.
 */
export const LOCALES = ['en', 'fr', 'de', 'es', 'ar', 'ja', 'en-XA'] as const;
export type Locale = (typeof LOCALES)[number];

/** The languages written right to left, by base language; the frame mirrors its layout for them. */
const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur']);

let locale: Locale = 'en';
let catalogue: Catalogue = EN;
let plurals = new Intl.PluralRules('en');
let numbers = new Intl.NumberFormat('en');

/** The message `key` in the frame's language, its `{placeholders}` filled from `vars`. */
export function t(key: MessageKey, vars?: MessageVars): string {
  const message: string | PluralMessage = catalogue[key] ?? EN[key];
  const text = typeof message === 'string' ? message : (message[plurals.select(Number(vars?.count))] ?? message.other);
  if (!vars) return text;
  // A placeholder without a value stays as written: a test sees it, a visitor at least reads the rest.
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = vars[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? numbers.format(value) : value;
  });
}

/** Speaks `tag`'s language from now on, with its messages. */
export function useCatalogue(tag: Locale, messages: Catalogue): void {
  locale = tag;
  catalogue = messages;
  plurals = new Intl.PluralRules(tag);
  numbers = new Intl.NumberFormat(tag);
}

/** The language the frame speaks now. */
export function currentLocale(): Locale {
  return locale;
}

/** The writing direction of a language, for `<html dir>`. */
export function directionOf(tag: string): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(tag.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr';
}

/** The supported locale a tag asks for: the same tag (case aside), else its base language; undefined for neither. */
export function matchLocale(tag: string | undefined): Locale | undefined {
  if (!tag) return undefined;
  const wanted = tag.toLowerCase();
  const base = wanted.split('-')[0];
  return LOCALES.find((known) => known.toLowerCase() === wanted) ?? LOCALES.find((known) => known.toLowerCase() === base);
}

/** How long the frame waits for a catalogue before it speaks English: the map must not wait on words for long. */
const CATALOGUE_TIMEOUT_MS = 3000;

/**
 * Runs `then` once `tag`'s catalogue is in use: at once for English, which frame.js carries; for the
 * others once fetched from beside `frameScript` (`locales/<tag>.json`, with its `?v=`, cached as it
 * is). A catalogue that does not arrive leaves the frame in English rather than without words.
 */
export function whenCatalogue(tag: Locale, frameScript: string, then: () => void): void {
  if (tag === 'en') return then();
  const script = new URL(frameScript);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CATALOGUE_TIMEOUT_MS);
  fetch(new URL(`locales/${tag}.json${script.search}`, script), { credentials: 'omit', signal: controller.signal })
    .then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json() as Promise<Partial<Catalogue>>;
    })
    // English under it: a key a catalogue lacks is said in English rather than not at all.
    .then((messages) => useCatalogue(tag, { ...EN, ...messages }))
    .catch(() => undefined)
    .finally(() => {
      clearTimeout(timer);
      then();
    });
}

/**
 * Writes the page's own words in the frame's language: `<html lang dir>`, the title, and each element's
 * `data-i18n` (its text) and `data-i18n-<attribute>` (that attribute) from frame.html.
 */
export function localiseDocument(doc: Document): void {
  doc.documentElement.lang = locale;
  doc.documentElement.dir = directionOf(locale);
  doc.title = t('frame.title');
  for (const element of doc.querySelectorAll<HTMLElement>('[data-i18n]')) element.textContent = t(element.dataset.i18n as MessageKey);
  for (const attribute of ['aria-label', 'aria-roledescription', 'title', 'placeholder']) {
    for (const element of doc.querySelectorAll(`[data-i18n-${attribute}]`)) {
      element.setAttribute(attribute, t(element.getAttribute(`data-i18n-${attribute}`) as MessageKey));
    }
  }
}

/** The language the frame speaks, and the integrator's `locale` when the frame has no catalogue for it. */
export interface LocaleChoice {
  locale: Locale;
  unsupported?: string;
}

/**
 * The integrator's `locale` (its exact tag, then its base language), else the page's language (sent
 * by the loader), else English. An integrator's locale without a catalogue is theirs to hear about
 * (`invalid_option`); the page's language is whatever the visitor's browser says, and falls back silently.
 */
export function pickLocale(requested: string | undefined, page: string | undefined): LocaleChoice {
  const chosen = matchLocale(requested) ?? matchLocale(page) ?? 'en';
  return requested && !matchLocale(requested) ? { locale: chosen, unsupported: requested } : { locale: chosen };
}
