// Builds dist/: the `loc/code` library and the `loc` command (ESM for Node), the frozen table beside
// them, and the library's type declarations. `--if-missing` skips the work when dist/ is complete, so
// `npm start` on a fresh clone builds once and later starts stay fast.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';

const outputs = ['dist/code.js', 'dist/cli.js', 'dist/tables/v1.bin', 'dist/types/code/index.d.ts'];

if (process.argv.includes('--if-missing') && outputs.every((file) => existsSync(file))) process.exit(0);

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist/tables', { recursive: true });

const node = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

await Promise.all([
  build({ ...node, entryPoints: ['src/code/index.ts'], outfile: 'dist/code.js' }),
  build({ ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
]);
chmodSync('dist/cli.js', 0o755);
copyFileSync('src/code/tables/v1.bin', 'dist/tables/v1.bin');
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json'], { stdio: 'inherit' });
