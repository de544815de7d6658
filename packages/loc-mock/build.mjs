// Builds loc-mock into `outDir` (the root build.mjs runs this, then moves the files into dist/ beside
// this file): `loc mock` as a package of its own, with no dependency and no native module. The bin
// (src/cli/mock-bin.ts) and the tile worker, with the script piscina's threads start to run it, are
// bundled with every package they use, so the install holds nothing else; beside them, the files the
// service reads at run time, taken from the service's own build: the embed, the code's table, the
// offline addresses (places.bin), the guides it serves, and the land the offline tiles are drawn from.
//
// The service's sources load a few packages on first use through createRequire(), which no bundler
// follows: their imports of `node:module` get bundled-require.js instead, which requires them so that
// esbuild bundles them. The drivers of the engines the mock never opens, and OpenTelemetry, which it
// never starts, are each replaced by a module that throws when it is evaluated: the service loads
// them with import() where it chooses an engine or starts traces, so they are never evaluated on the
// mock's path, and a change that reached one would stop the mock at start rather than ship it.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, cpSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILES } from './bundled-require.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

/** What the build writes, relative to the package. */
export const OUTPUTS = ['dist/loc-mock.js', 'dist/tile-worker.js', 'dist/worker.js', 'dist/places.bin', 'dist/tables/v1r3.bin', 'dist/embed/loc-embed.js', 'dist/embed/frame.html', 'dist/docs/embed.md', ...FILES.map((file) => `dist/${file}`)];

/** What the build reads besides the service's sources and build, relative to the package. */
export const SOURCES = ['build.mjs', 'bundled-require.js', 'package.json'];

/** The guides the service serves (src/server/pages/guides.ts), from the root's docs/. */
export const GUIDES = ['quickstart.md', 'embed.md', 'testing-your-integration.md'];

/** Packages the mock never evaluates: the engines' drivers, OpenTelemetry, piscina's optional native nice(2). */
const NEVER_EVALUATED = /^(better-sqlite3|pg|ioredis|@opentelemetry\/.*|@fastify\/otel|@napi-rs\/nice)$/;

const mockPlugin = {
  name: 'loc-mock',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^node:module$/ }, ({ importer }) => (importer.startsWith(join(root, 'src') + sep) ? { path: join(here, 'bundled-require.js') } : undefined));
    esbuild.onResolve({ filter: NEVER_EVALUATED }, ({ path }) => ({ path, namespace: 'never-evaluated' }));
    esbuild.onLoad({ filter: /.*/, namespace: 'never-evaluated' }, ({ path }) => ({
      contents: `throw new Error(${JSON.stringify(`loc-mock does not include ${path}: the mock was about to load it (packages/loc-mock/build.mjs).`)});`,
      loader: 'js',
    }));
  },
};

/**
 * Bundles the bin and the tile worker into `outDir`.
 * @param {string} outDir where the files go, as dist/ will hold them
 */
export async function bundleLocMock(outDir) {
  // ESM, with what the CommonJS packages inside expect of their module scope: `require` for Node's own
  // modules, and `__dirname`, where piscina finds the script its threads start (worker.js, below).
  const scope = [
    "import { createRequire as __locMockRequire } from 'node:module';",
    "import { dirname as __locMockDirname } from 'node:path';",
    "import { fileURLToPath as __locMockPath } from 'node:url';",
    'const require = __locMockRequire(import.meta.url);',
    'const __dirname = __locMockDirname(__locMockPath(import.meta.url));',
  ].join('\n');
  const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', legalComments: 'none', logLevel: 'warning', absWorkingDir: root, plugins: [mockPlugin], banner: { js: scope } };
  await Promise.all([
    build({ ...common, entryPoints: [join(root, 'src/cli/mock-bin.ts')], outfile: join(outDir, 'loc-mock.js'), banner: { js: `#!/usr/bin/env node\n${scope}` } }),
    build({ ...common, entryPoints: [join(root, 'src/tiles/tile-worker.ts')], outfile: join(outDir, 'tile-worker.js') }),
    // The tile pool's threads run piscina's own script, which then imports tile-worker.js.
    build({ ...common, entryPoints: [join(root, 'node_modules/piscina/dist/worker.js')], outfile: join(outDir, 'worker.js') }),
  ]);
  chmodSync(join(outDir, 'loc-mock.js'), 0o755);
}

/**
 * Copies into `outDir` the files the service reads at run time, from the service's build in `built`.
 * @param {string} outDir the package's build
 * @param {string} built the service's build, as dist/ will hold it
 */
export function copyServiceFiles(outDir, built) {
  mkdirSync(join(outDir, 'tables'), { recursive: true });
  copyFileSync(join(built, 'places.bin'), join(outDir, 'places.bin'));
  copyFileSync(join(built, 'tables/v1r3.bin'), join(outDir, 'tables/v1r3.bin'));
  cpSync(join(built, 'embed'), join(outDir, 'embed'), { recursive: true });
  mkdirSync(join(outDir, 'docs'), { recursive: true });
  for (const guide of GUIDES) copyFileSync(join(root, 'docs', guide), join(outDir, 'docs', guide));
  for (const file of FILES) {
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    copyFileSync(join(root, 'node_modules', file), join(outDir, file));
  }
}
