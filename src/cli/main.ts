/**
 * The `loc` command: one program, one module per group of subcommands. Usage mistakes print one line
 * and exit 2; errors of the work itself exit 1. Importing it runs nothing: bin.ts runs it as the
 * process, and the tests call `main` in-process with an io of their own.
 */
import { registerAccountCommands } from './account-commands.ts';
import { registerAccountLimitCommands } from './account-limit-commands.ts';
import { registerActivityCommands } from './activity-commands.ts';
import { registerBackupCommand } from './backup-command.ts';
import { LocProgram, rootProgram, runProgram, type CliIo } from './cli-io.ts';
import { registerCodeCommands } from './code-commands.ts';
import { registerDbCommands } from './db-commands.ts';
import { registerKeyCommands } from './key-commands.ts';
import { registerMockCommand } from './mock-command.ts';
import { registerRotationCommands } from './rotation-commands.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerTestDataCommand } from './test-data-command.ts';
import { registerUserCommands } from './user-commands.ts';

export type { CliIo } from './cli-io.ts';

/** The program of one run, writing through `io`; its subcommands inherit the output set here. */
function buildProgram(io: CliIo): LocProgram {
  const program = rootProgram(new LocProgram(io).description('loc: location codes for 3 m cells, the API service and its operator tools'));
  registerCodeCommands(program);
  registerServeCommand(program);
  registerMockCommand(program);
  const accounts = registerAccountCommands(program);
  const keys = registerKeyCommands(program);
  registerRotationCommands(keys);
  registerUserCommands(program, accounts);
  registerAccountLimitCommands(accounts);
  registerActivityCommands(program, keys);
  registerTestDataCommand(program);
  registerBackupCommand(program);
  registerDbCommands(program);
  return program;
}

/** Runs `loc` with the arguments `argv` (without node and the script) and `io`; resolves with the exit code. */
export const main = (argv: string[], io: CliIo): Promise<number> => runProgram(buildProgram(io), argv);
