/**
 * build.mjs --if-missing, which `npm start` (and both suites) run first: it builds dist/ when a file
 * is missing or when a source is newer than what was built from it, and otherwise does nothing.
 * Run on a copy of the repository, so that the dist/ the other tests use is never rebuilt under
 * them. The copy starts with this checkout's dist/, timestamps kept, so one real build suffices:
 * `--check` asks the same question `--if-missing` acts on, without building.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { builtCli, builtCliFiles } from '../test/support/built-cli.ts';

const ROOT = join(import.meta.dirname, '..');
let copy: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'loc-build-'));
  for (const path of ['build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.types.json', 'tsconfig.browser.json', 'src', 'iframe-app', 'panel-app', 'demo', 'packages', 'docs', 'dist']) {
    cpSync(join(ROOT, path), join(copy, path), { recursive: true, preserveTimestamps: true, filter: (source) => !/\/node_modules$/.test(source) });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const build = (): void => void execFileSync(process.execPath, ['build.mjs', '--if-missing'], { cwd: copy, stdio: 'pipe' });
/** Whether `build.mjs --if-missing` would build now. */
const wouldBuild = (): boolean => {
  try {
    execFileSync(process.execPath, ['build.mjs', '--check'], { cwd: copy, stdio: 'pipe' });
    return false;
  } catch (error) {
    if ((error as { status?: number }).status === 1) return true;
    throw error;
  }
};
const builtAt = (file = 'dist/cli.js'): number => statSync(join(copy, file)).mtimeMs;
const packageBuiltAt = (): number => builtAt('packages/loc-js/dist/embed.js');
const mockBuiltAt = (): number => builtAt('packages/loc-mock/dist/loc-mock.js');

/** Gives `file` a modification time `seconds` after the build's, as `git pull` or an edit would. */
function touchAfterBuild(file: string, seconds: number): void {
  const time = new Date(builtAt() + seconds * 1000);
  utimesSync(join(copy, file), time, time);
}

it('builds what is missing, the integrators’ package and the light mock with the rest, then leaves a complete, up-to-date dist/ alone', { timeout: 120_000 }, () => {
  expect(wouldBuild()).toBe(false);
  const [before, packageBefore, mockBefore] = [builtAt(), packageBuiltAt(), mockBuiltAt()];
  rmSync(join(copy, 'dist/embed/frame.css'));
  expect(wouldBuild()).toBe(true);
  build();
  expect(existsSync(join(copy, 'dist/embed/frame.css'))).toBe(true);
  expect(builtAt()).toBeGreaterThan(before);
  expect(packageBuiltAt()).toBeGreaterThan(packageBefore);
  expect(mockBuiltAt()).toBeGreaterThan(mockBefore);
  const first = builtAt();
  build();
  expect(builtAt()).toBe(first);
  expect(wouldBuild()).toBe(false);
});

it('builds again when a source is newer than dist/ (after git pull), but not for a test file', () => {
  touchAfterBuild('src/cli/serve-command.test.ts', 60);
  expect(wouldBuild()).toBe(false);
  touchAfterBuild('src/cli/main.ts', 60);
  expect(wouldBuild()).toBe(true);
});

it('builds again when a source of the integrators’ package is newer', () => {
  touchAfterBuild('src/cli/main.ts', -60);
  expect(wouldBuild()).toBe(false);
  touchAfterBuild('packages/loc-js/src/embed.ts', 120);
  expect(wouldBuild()).toBe(true);
});

it('builds again when the light mock’s build or a guide it serves is newer', () => {
  touchAfterBuild('packages/loc-js/src/embed.ts', -60);
  expect(wouldBuild()).toBe(false);
  touchAfterBuild('packages/loc-mock/bundled-require.js', 180);
  expect(wouldBuild()).toBe(true);
  touchAfterBuild('packages/loc-mock/bundled-require.js', -60);
  touchAfterBuild('docs/testing-your-integration.md', 180);
  expect(wouldBuild()).toBe(true);
});

/** The files a start of `loc` loads before any command runs: cli.js and the chunks it imports statically. */
function loadedAtStart(files: Map<string, string>): string[] {
  const loaded = ['cli.js'];
  for (const name of loaded) {
    for (const [, chunk] of files.get(name)!.matchAll(/^import (?:[^;]*?from )?"\.\/(cli-[A-Z0-9]+\.js)";/gm)) if (!loaded.includes(chunk)) loaded.push(chunk);
  }
  return loaded;
}

it('loads the server — Fastify, its plugins, the app — for `serve` and `mock` alone: every other command starts without it', () => {
  const files = builtCliFiles();
  const atStart = loadedAtStart(files);
  const staticImports = (name: string) => [...files.get(name)!.matchAll(/^import (?:[^;]*?from )?"([^"]+)";/gm)].map(([, from]) => from);
  expect(atStart.flatMap(staticImports).filter((from) => /^(fastify|fastify-plugin|@fastify\/)/.test(from))).toEqual([]);
  // …and the chunks that are not loaded at start do hold it.
  expect([...files.keys()].filter((name) => !atStart.includes(name)).flatMap(staticImports)).toContain('fastify');
});

it('loads the common-password list on the first new password, not at start, and resolves it from dist/', () => {
  const cli = builtCli();
  const list = '@zxcvbn-ts/language-common';
  expect(cli).not.toMatch(new RegExp(`^import [^;]* from "${list}";`, 'm'));
  expect(cli).toContain(`import("${list}")`);
  expect(createRequire(join(ROOT, 'dist/cli.js')).resolve(list)).toContain(join('node_modules', list));
});

it('leaves the database drivers out of every start: the `loc` command loads pg and ioredis only when a database or Redis is named', () => {
  // esbuild hoists a static import to the top of the bundle, however late the module holding it runs:
  // every `loc` command, on SQLite too, would load both drivers first (about 0.3 s of start-up).
  const cli = builtCli();
  for (const driver of ['pg', 'ioredis']) {
    expect(cli).not.toMatch(new RegExp(`^import [^;]* from "${driver}";`, 'm'));
    expect(cli).toContain(`import("${driver}")`);
  }
});
