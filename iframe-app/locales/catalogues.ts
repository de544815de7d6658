/**
 * Every catalogue the frame loads on demand, by locale: the build writes each to
 * `dist/embed/locales/<tag>.json` (build.mjs), and the frame bundles none of them. English is not
 * here: frame.js carries it (i18n.ts).
 */
import type { Locale } from '../i18n.ts';
import ar from './ar.ts';
import de from './de.ts';
import { EN, type Catalogue } from './en.ts';
import es from './es.ts';
import fr from './fr.ts';
import ja from './ja.ts';
import { pseudoCatalogue } from './pseudo.ts';

export const CATALOGUES: Record<Exclude<Locale, 'en'>, Catalogue> = {
  fr,
  de,
  es,
  ar,
  ja,
  'en-XA': pseudoCatalogue(EN),
};
