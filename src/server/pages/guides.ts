/**
 * Where the service leads integrators beyond its API reference: the integrator guides of docs/ — the
 * quick start, the embed guide, testing an integration — which the service serves as they are, so
 * that a running service leads to the guides of its own version; and the TypeScript declarations of
 * `LOC` (served with the embed's files). /docs, /openapi.json and the guides' routes take the paths
 * from here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The integrator guides, each served at `/docs/{file}`, in the order /docs lists them. */
export const GUIDES = ['quickstart.md', 'embed.md', 'testing-your-integration.md'] as const;
export type Guide = (typeof GUIDES)[number];

/** Where a guide is served. */
export const guidePath = (guide: Guide): string => `/docs/${guide}`;

/** The embed guide, as served. */
export const EMBED_GUIDE_PATH = guidePath('embed.md');

/** The declarations of `LOC`, its options, results and error codes (src/server/embed/assets.ts serves them). */
export const EMBED_TYPES_PATH = '/embed/v1/loc-embed.d.ts';

/** The npm package for integrators: `loadLoc`, the same types, the code's written form (packages/loc-js/). */
export const INTEGRATOR_PACKAGE = 'loc-js';

// Paths rather than `new URL(…, import.meta.url)`, as in embed/files.ts. From the bundle first: loc-mock
// ships the guides inside its dist/ (packages/loc-mock/build.mjs), the service's package docs/ beside
// dist/; then from src/server/pages/ in a checkout. In that order, as installed in a project the
// source tree's place is the project's own docs/.
const here = dirname(fileURLToPath(import.meta.url));

/** A guide's Markdown; throws when the installation has none. */
export function guideText(guide: Guide): Buffer {
  const candidates = [join(here, 'docs', guide), join(here, '../docs', guide), join(here, '../../../docs', guide)];
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`The guide ${guide} is missing: expected it at ${candidates.join(' or ')}.`);
  return readFileSync(found);
}
