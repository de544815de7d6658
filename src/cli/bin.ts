/**
 * The `loc` executable (built to dist/cli.js, package.json's `bin`): the one place the CLI meets its
 * process — the arguments, the environment, stdout and stderr, the exit code. The program is main.ts.
 */
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
});
