/**
 * The light mock (packages/loc-mock) as an integrator's CI gets it: packed with `npm pack` from this
 * checkout's build, and installed from the tarball into an empty project with install scripts off.
 * npm checks the install as it makes it: with `--engine-strict` as if on Node 20.19, the oldest
 * loc supports, it refuses any package whose `engines` excludes that version. Used by the package's
 * test (test/integrator/loc-mock-package.test.ts) and by `npm run test:example`, whose shop suite
 * runs on the installed bin (with-installed-mock.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './loc-process.ts';
import { npm } from './npm.ts';

/** The oldest Node loc supports: every package.json's `engines.node` says `>=20.19`. */
export const OLDEST_NODE = '20.19.0';

export interface InstalledMock {
  /** The project it is installed in, with nothing else. */
  project: string;
  /** The installed bin, `node_modules/.bin/loc-mock`. */
  bin: string;
}

/** Packs loc-mock into `work` (built already: packing builds nothing) and installs it into `work`/project. */
export async function installLocMock(work: string): Promise<InstalledMock> {
  const project = join(work, 'project');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'integration', version: '1.0.0', private: true }));
  await npm(['pack', '--ignore-scripts', '--workspace', 'loc-mock', '--pack-destination', work], ROOT);
  const install = ['install', '--ignore-scripts', '--engine-strict', `--node-version=${OLDEST_NODE}`, '--prefer-offline', '--no-audit', '--no-fund'];
  const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/loc-mock/package.json'), 'utf8')) as { version: string };
  await npm([...install, join(work, `loc-mock-${version}.tgz`)], project);
  return { project, bin: join(project, 'node_modules/.bin/loc-mock') };
}
