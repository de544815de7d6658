// Builds dist/: the `loc/code` library and the `loc` command (ESM for Node), the frozen table beside
// them, the library's type declarations, and the embed — the loader `loc-embed.js` (an IIFE for a plain
// script tag) with its declarations, the map frame's script and styles, and the demo page's script.
// `--if-missing` skips the work when dist/ is complete and newer than every file it is built from, so
// `npm start` on a fresh clone builds once, later starts stay fast, and a start after `git pull` (or
// an edit) does not run the code from before it.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const outputs = [
  'dist/code.js',
  'dist/cli.js',
  'dist/tables/v1.bin',
  'dist/types/code/index.d.ts',
  'dist/embed/loc-embed.js',
  'dist/embed/loc-embed.d.ts',
  'dist/embed/frame.js',
  'dist/embed/frame.css',
  'dist/embed/frame.html',
  'dist/demo/demo.js',
];

/** What dist/ is built from; tests are not part of it. */
const sources = ['src', 'iframe-app', 'demo', 'build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.types.json'];

/** The latest modification time of the files at `path`, in milliseconds; 0 when there is none. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith('.test.ts') ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const upToDate = () =>
  outputs.every((file) => existsSync(file)) && Math.max(...sources.map(newest)) <= Math.min(...outputs.map((file) => statSync(file).mtimeMs));

if (process.argv.includes('--if-missing') && upToDate()) process.exit(0);

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist/tables', { recursive: true });
mkdirSync('dist/embed', { recursive: true });

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
  build({ ...node, entryPoints: ['src/code/index.ts'], outfile: 'dist/code.js' }),
  build({ ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
  build({
    ...browser,
    entryPoints: ['src/embed/loader-entry.ts'],
    outfile: 'dist/embed/loc-embed.js',
    format: 'iife',
    define: { __LOC_VERSION__: JSON.stringify(version) },
  }),
  build({ ...browser, entryPoints: ['iframe-app/main.ts'], outfile: 'dist/embed/frame.js', format: 'iife', sourcemap: 'linked' }),
  // Leaflet's stylesheet names marker and layer-switcher images the frame never shows; leaving them
  // out keeps them from being inlined into the stylesheet.
  build({ ...browser, entryPoints: ['iframe-app/frame.css'], outfile: 'dist/embed/frame.css', loader: { '.png': 'empty' } }),
  build({ ...browser, entryPoints: ['demo/page/main.ts'], outfile: 'dist/demo/demo.js', format: 'iife', sourcemap: 'linked' }),
]);
chmodSync('dist/cli.js', 0o755);
copyFileSync('src/code/tables/v1.bin', 'dist/tables/v1.bin');
copyFileSync('iframe-app/frame.html', 'dist/embed/frame.html');
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json'], { stdio: 'inherit' });
// One source for the integrators' declarations: the public types of the embed, emitted by tsc above.
copyFileSync('dist/types/embed/public-types.d.ts', 'dist/embed/loc-embed.d.ts');
