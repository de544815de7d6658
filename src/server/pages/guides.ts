/**
 * Where the service leads integrators of the map picker beyond its API reference: the embed guide
 * (docs/embed.md, which the service serves as it is, so that a running service leads to the guide of
 * its own version), and the TypeScript declarations of `LOC` (served with the embed's files). /docs,
 * /openapi.json and the guide's route take the paths from here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The embed guide, as served. */
export const EMBED_GUIDE_PATH = '/docs/embed.md';

/** The declarations of `LOC`, its options, results and error codes (src/server/embed/assets.ts serves them). */
export const EMBED_TYPES_PATH = '/embed/v1/loc-embed.d.ts';

/** The npm package for integrators: `loadLoc`, the same types, the code's written form (packages/loc-js/). */
export const INTEGRATOR_PACKAGE = 'loc-js';

// Paths rather than `new URL(…, import.meta.url)`, as in embed/files.ts. From src/server/pages/ in a
// checkout, from dist/cli.js once built; the package ships docs/ beside dist/.
const here = dirname(fileURLToPath(import.meta.url));
const CANDIDATES = [join(here, '../../../docs/embed.md'), join(here, '../docs/embed.md')];

/** The embed guide's Markdown; throws when the installation has none. */
export function embedGuide(): Buffer {
  const found = CANDIDATES.find((file) => existsSync(file));
  if (!found) throw new Error(`The embed guide is missing: expected it at ${CANDIDATES.join(' or ')}.`);
  return readFileSync(found);
}
