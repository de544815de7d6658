/**
 * The light mock (packages/loc-mock) as an integrator's CI gets it: packed with `npm pack` from this
 * checkout's build, and installed from the tarball into an empty project with install scripts off.
 * Used by the package's test (test/integrator/loc-mock-package.test.ts) and by `npm run test:example`,
 * whose shop suite runs on the installed bin (with-installed-mock.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './loc-process.ts';
import { npm } from './npm.ts';

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
  const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/loc-mock/package.json'), 'utf8')) as { version: string };
  await npm(['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', join(work, `loc-mock-${version}.tgz`)], project);
  return { project, bin: join(project, 'node_modules/.bin/loc-mock') };
}
