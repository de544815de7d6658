// Builds loc-js into `outDir` (the root build.mjs runs this, then moves the files into dist/ beside
// this file): each entry as ESM (`.js`) and CommonJS (`.cjs`), bundled so that the service's code it
// uses (src/code/) is inside and nothing is imported at run time, and its declarations for both
// (`.d.ts`, `.d.cts`).
//
// The declarations are tsc's, of the entries and of the service's sources they name: the embed's
// public types are the very file the service serves as loc-embed.d.ts, and the error codes the
// catalogue's. They keep their places below dist/ (`src/…`), so relative imports hold without a
// bundler of declarations; the CommonJS twins differ only in naming `.cjs` files.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

/** The package's entries: `loc-js/<name>` is `src/<name>.ts`. */
export const ENTRIES = ['embed', 'code', 'codec', 'react', 'vue', 'picker', 'testing',
  // loc's grid on the integrator's own map
  'grid', 'leaflet', 'maplibre'];

/**
 * The entries that are types alone: `<loc-picker>` in each framework's templates, `loc-js/picker/<framework>`
 * from `src/picker-<framework>.ts`; nothing runs, so they have declarations and no JS.
 */
export const TYPE_ENTRIES = ['picker-react', 'picker-svelte', 'picker-vue'];

/**
 * The codec's table, `loc-js/table.bin`, for an app that bundles it rather than fetching it
 * (`loadCodec({ table })`): the service's file, byte for byte.
 */
export const TABLE_OUTPUT = 'dist/table.bin';

/** What the build writes, relative to the package: the JS of each entry; the declarations follow from them. */
export const OUTPUTS = [
  ...ENTRIES.flatMap((name) => [`dist/${name}.js`, `dist/${name}.cjs`, `dist/${name}.d.ts`, `dist/${name}.d.cts`]),
  ...TYPE_ENTRIES.map((name) => `dist/${name}.d.ts`),
  TABLE_OUTPUT,
];

/**
 * A relative module specifier in a declaration file: `.ts` where the source wrote it (tsc keeps it in
 * declarations), `.js` otherwise; quotes as in the source, or double where tsc wrote the import.
 */
const SPECIFIER = /(from\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\.[jt]s\2/g;

/** `text` with each relative specifier (without its `.js`) replaced by `change(specifier)` plus `extension`. */
const respecify = (text, change, extension = '.js') => text.replace(SPECIFIER, (_, before, quote, specifier) => `${before}${quote}${change(specifier)}${extension}${quote}`);

/**
 * An esbuild plugin: an entry that imports another (loc-js/react imports loc-js/embed) imports its
 * built file beside it rather than a copy, so that a page using both has one `loadLoc` and one cache.
 * @param {string} extension of the built files, `.js` or `.cjs`
 */
const entriesStayApart = (extension) => ({
  name: 'loc-js-entries-stay-apart',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/[\w-]+\.ts$/ }, ({ path, importer }) => {
      const name = path.slice(2, -3);
      return dirname(importer) === join(here, 'src') && ENTRIES.includes(name) ? { path: `./${name}${extension}`, external: true } : undefined;
    });
  },
});

/**
 * @param {string} outDir where the files go, as dist/ will hold them
 * @param {string[]} target esbuild's browser targets, the same as the service's browser code
 */
export async function buildLocJs(outDir, target) {
  // React, Vue, Leaflet and MapLibre are the integrator's, optional peers of loc-js/react, loc-js/vue,
  // loc-js/leaflet and loc-js/maplibre: imported, never bundled.
  const common = { bundle: true, platform: 'neutral', target, external: ['react', 'vue', 'leaflet', 'maplibre-gl'], legalComments: 'none', logLevel: 'warning', absWorkingDir: root };
  await Promise.all(
    ENTRIES.flatMap((name) => [
      build({ ...common, entryPoints: [join(here, `src/${name}.ts`)], format: 'esm', outfile: join(outDir, `${name}.js`), plugins: [entriesStayApart('.js')] }),
      build({ ...common, entryPoints: [join(here, `src/${name}.ts`)], format: 'cjs', outfile: join(outDir, `${name}.cjs`), plugins: [entriesStayApart('.cjs')] }),
    ]),
  );

  copyFileSync(join(root, 'src/code/tables/v1r3.bin'), join(outDir, 'table.bin'));

  const emitted = mkdtempSync(join(tmpdir(), 'loc-js-types-'));
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(here, 'tsconfig.json'), '--outDir', emitted], { stdio: 'inherit' });
    const entryDir = join(emitted, relative(root, here), 'src');
    // The entries, and the package's modules they name, at dist/'s top; what they name from the
    // service's src/, below dist/src/.
    const shipped = new Map([...ENTRIES, ...TYPE_ENTRIES].map((name) => [join(entryDir, `${name}.d.ts`), `${name}.d.ts`]));
    const ownModule = (file) => dirname(file) === entryDir;
    // Grows while it is walked: each file's imports join it.
    for (const from of shipped.keys()) {
      for (const [, , , specifier] of readFileSync(from, 'utf8').matchAll(SPECIFIER)) {
        const named = resolve(dirname(from), `${specifier}.d.ts`);
        const place = ownModule(named) ? relative(entryDir, named) : relative(emitted, named);
        if (!ownModule(named) && !place.startsWith('src/')) throw new Error(`loc-js: ${relative(emitted, from)} names ${specifier}, outside the package and the service's src/.`);
        if (!shipped.has(named)) shipped.set(named, place);
      }
    }
    for (const [from, to] of shipped) {
      // The package's modules move from packages/loc-js/src/ to dist/ (their names of each other hold);
      // the service's files keep their places.
      const place = (specifier) => {
        const named = resolve(entryDir, specifier);
        return !ownModule(from) || ownModule(`${named}.d.ts`) ? specifier : `./${relative(emitted, named)}`;
      };
      const text = respecify(readFileSync(from, 'utf8'), place);
      mkdirSync(dirname(join(outDir, to)), { recursive: true });
      writeFileSync(join(outDir, to), text);
      writeFileSync(join(outDir, to.replace(/\.d\.ts$/, '.d.cts')), respecify(text, (specifier) => specifier, '.cjs'));
    }
  } finally {
    rmSync(emitted, { recursive: true, force: true });
  }
}
