/**
 * The light mock as an integrator's CI gets it (test/support/loc-mock-install.ts): packed, installed
 * from its tarball into an empty project with install scripts off, and the install read: no native
 * module, no package whose `engines` excludes Node 20.19 (the oldest loc supports); then the installed
 * bin started on a free loopback port, and the contract suite (test/contract/contract-suite.ts) run
 * against it, as against `loc serve` and `loc mock`. One install, one server.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLocMock, type InstalledMock } from '../support/loc-mock-install.ts';
import { ROOT, runProcess, spawnProcess, type Spawned } from '../support/loc-process.ts';
import { contractSuite, type ContractTarget } from '../contract/contract-suite.ts';

/** The oldest Node loc supports: every package of loc says `>=20.19`. */
const OLDEST_NODE = '20.19.0';

/** npm's own rules for version ranges: the semver package npm uses (a devDependency; it ships no types). */
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

let work: string;
let installed: InstalledMock;
let server: Spawned;
let target: ContractTarget;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'loc-mock-package-'));
  installed = await installLocMock(work);
  // A project has a docs/ and a dist/ of its own, where loc's files would be in loc's own checkout.
  for (const file of ['docs/testing-your-integration.md', 'dist/embed/loc-embed.js']) {
    mkdirSync(join(installed.project, file, '..'), { recursive: true });
    writeFileSync(join(installed.project, file), 'the project’s own');
  }
  server = spawnProcess(installed.bin, ['--port', '0', '--host', '127.0.0.1'], { cwd: installed.project, env: { LOC_LOG_LEVEL: 'warn' } });
  const ready = await server.ready();
  target = { baseUrl: ready.url, publicUrl: ready.publicUrl, key: `loc_test_${randomBytes(32).toString('base64url')}`, origin: 'http://localhost:3000' };
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The packages installed in `modules` (a node_modules folder), scoped ones as `@scope/name`. */
function packagesIn(modules: string): string[] {
  return readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name]));
}

/** The packages installed under `modules`, nested ones too, whose `engines.node` excludes Node `version`, with their range. */
function enginesExcluding(modules: string, version: string): string[] {
  const manifests = readdirSync(modules, { recursive: true, encoding: 'utf8' }).filter((file) => /(^|\/)node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(`node_modules/${file}`));
  return manifests.flatMap((file) => {
    const { name, engines } = JSON.parse(readFileSync(join(modules, file), 'utf8')) as { name: string; engines?: { node?: string } };
    return engines?.node === undefined || semver.satisfies(version, engines.node) ? [] : [`${name} ${engines.node}`];
  });
}

describe('loc-mock installed from its tarball', () => {
  it('is one package: no dependency, no native module, no engines range that excludes Node 20.19', () => {
    const modules = join(installed.project, 'node_modules');
    expect(packagesIn(modules)).toEqual(['loc-mock']);
    const files = readdirSync(modules, { recursive: true, encoding: 'utf8' });
    expect(files.filter((file) => file.endsWith('.node'))).toEqual([]);
    expect(enginesExcluding(modules, OLDEST_NODE)).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(modules, 'loc-mock/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ engines: { node: '>=20.19' }, bin: { 'loc-mock': 'dist/loc-mock.js' } });
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) expect(manifest[field], field).toBeUndefined();
  });

  it('is a command of its own with the flags of loc mock: --help names loc-mock; a bad --fail or an argument is a usage mistake, exit 2', async () => {
    const run = (...args: string[]) => runProcess(installed.bin, args, { cwd: installed.project });
    const [help, badFailure, argument] = await Promise.all([run('--help'), run('--fail', 'nope'), run('mock')]);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: loc-mock \[options\]\n/) });
    for (const flag of ['--port', '--host', '--expose-unsafely', '--key', '--fail']) expect(help.stdout).toContain(`  ${flag} `);
    expect(badFailure).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --fail must be CODE or CODE:N/) });
    expect(argument).toMatchObject({ code: 2, stderr: "error: too many arguments. Expected 0 arguments but got 1. (see --help)\n" });
  });

  it('serves what its dist carries, not the project’s files: the embed, its catalogues, the guides, and tiles drawn offline at low and high zoom', async () => {
    const get = async (path: string) => {
      const response = await fetch(`${target.baseUrl}${path}`);
      return { path, status: response.status, type: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer()) };
    };
    const answers = await Promise.all(['/embed/loc-embed.js', '/embed/frame.js', '/embed/frame.css', '/embed/locales/fr.json', '/docs/testing-your-integration.md', '/tiles/streets/3/4/2.png', '/tiles/streets/7/64/44.png'].map(get));
    expect(answers.map(({ path, status }) => ({ path, status }))).toEqual(answers.map(({ path }) => ({ path, status: 200 })));
    const tiles = answers.filter(({ path }) => path.startsWith('/tiles/'));
    for (const tile of tiles) expect([tile.type, tile.body.subarray(1, 4).toString()]).toEqual(['image/png', 'PNG']);
    const served = (path: string) => answers.find((answer) => answer.path === path)!.body.toString();
    expect(served('/docs/testing-your-integration.md')).toBe(readFileSync(join(ROOT, 'docs/testing-your-integration.md'), 'utf8'));
    expect(served('/embed/loc-embed.js')).toBe(readFileSync(join(ROOT, 'dist/embed/loc-embed.js'), 'utf8'));
  });
});

contractSuite(() => target);
