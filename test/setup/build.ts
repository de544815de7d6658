/** Builds dist/ once before the suite: the CLI and package-entry tests run the built artifacts. */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['build.mjs', '--if-missing'], { stdio: 'inherit' });
}
