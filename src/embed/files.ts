/**
 * Where the embed's built files are: `dist/embed/` (the loader, its declarations, the frame's script,
 * styles and page template), whether this module runs from the source tree or bundled into `dist/`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CANDIDATES = [new URL('../../dist/embed/', import.meta.url), new URL('./embed/', import.meta.url)];

/** The directory of the built embed files; throws when there is none (run `npm run build`). */
export function embedDir(): string {
  const found = CANDIDATES.map((url) => fileURLToPath(url)).find((dir) => existsSync(`${dir}loc-embed.js`));
  if (!found) throw new Error(`The embed is not built: expected loc-embed.js in ${CANDIDATES.map((u) => fileURLToPath(u)).join(' or ')}; run npm run build.`);
  return found;
}
