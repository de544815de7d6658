/**
 * `node --import tsx test/support/with-installed-mock.ts COMMAND ARGS…`: runs the command with
 * LOC_MOCK_COMMAND naming the bin of loc-mock installed from its packed tarball (loc-mock-install.ts),
 * so that `npm run test:example` tests the example shop against the mock an integrator installs.
 * Builds first when dist/ is not up to date; exits with the command's code, the install removed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installLocMock } from './loc-mock-install.ts';
import { ROOT } from './loc-process.ts';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) throw new Error('usage: with-installed-mock.ts COMMAND [ARGS…]');
const built = spawnSync(process.execPath, ['build.mjs', '--if-missing'], { cwd: ROOT, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const work = mkdtempSync(join(tmpdir(), 'loc-mock-install-'));
try {
  const { bin } = await installLocMock(work);
  const run = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, LOC_MOCK_COMMAND: bin } });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
