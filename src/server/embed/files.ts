/**
 * Where the embed's built files are: `dist/embed/` (the loader, its declarations, the frame's script,
 * styles and page template), whether this module runs from the source tree or bundled into `dist/`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Paths rather than `new URL(…, import.meta.url)`, which Vite rewrites into asset URLs in DOM tests.
// Beside the bundle first: installed in a project, the source tree's place is the project's own dist/.
const here = dirname(fileURLToPath(import.meta.url));
const CANDIDATES = [join(here, 'embed/'), join(here, '../../../dist/embed/')];

/** The directory of the built embed files, with a trailing slash; throws when there is none. */
export function embedDir(): string {
  const found = CANDIDATES.find((dir) => existsSync(join(dir, 'loc-embed.js')));
  if (!found) throw new Error(`The embed is not built: expected loc-embed.js in ${CANDIDATES.join(' or ')}; run npm run build.`);
  return found;
}

/**
 * The built files the embed sends compressed, as they are (beside the frame's catalogues, `locales/`):
 * the build writes their compressed copies beside them (precompress.ts).
 */
export const COMPRESSED_FILES = ['loc-embed.js', 'loc-embed.d.ts', 'loc-picker.js', 'loc-picker.d.ts', 'frame.js', 'frame.css'] as const;

/** One of those, or a catalogue. */
export type CompressedFile = (typeof COMPRESSED_FILES)[number] | `locales/${string}.json`;

/** The frame's catalogues under `dir`, as paths relative to it: `locales/fr.json` … */
export const catalogueFiles = (dir: string): `locales/${string}.json`[] =>
  readdirSync(`${dir}locales`).filter((name) => name.endsWith('.json')).sort().map((name) => `locales/${name}` as `locales/${string}.json`);
