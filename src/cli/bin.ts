/**
 * The `loc` executable (built to dist/cli.js, package.json's `bin`): the one place the CLI meets its
 * process — the arguments, the environment, stdout and stderr, the exit code. The program is main.ts.
 * Traces are the service's: `loc serve` (each of its workers too, which run this file again) starts
 * them first when the standard OTEL_* variables ask for them (server/process/tracing.ts).
 */
import { main } from './main.ts';
import { TracingSettingError, startTracing, tracingWanted } from '../server/process/tracing.ts';

const argv = process.argv.slice(2);

/** Starts the traces `argv` and the environment ask for; false when a setting stops the start. */
async function traced(): Promise<boolean> {
  if (argv[0] !== 'serve' || !tracingWanted(process.env)) return true;
  try {
    await startTracing(process.env);
    return true;
  } catch (error) {
    if (!(error instanceof TracingSettingError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return false;
  }
}

process.exitCode = (await traced())
  ? await main(argv, {
      env: process.env,
      stdout: (text) => void process.stdout.write(text),
      stderr: (text) => void process.stderr.write(text),
    })
  : 2;
