/**
 * `loc` in-process: main.ts's `main` with an io of the test's own, for the suites that check what a
 * command does rather than the process it runs in (src/cli/cli-process.test.ts spawns the built CLI
 * for that, with loc-process.ts). The environment given is the whole of the run's: nothing of this
 * process's environment is read, so a developer's LOC_ settings cannot reach it. Runs may go on at
 * once (Promise.all), each with its own output and exit code.
 */
import { main } from '../../src/cli/main.ts';
import type { CommandResult } from './loc-process.ts';

export type { CommandResult };

/** Runs `loc args…` with `env` as its environment, to its end: its exit code and what it printed. */
export async function runCli(env: Record<string, string | undefined>, ...args: string[]): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { env, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}
