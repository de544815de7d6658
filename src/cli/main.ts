/**
 * The `loc` command: one program, one module per group of subcommands. Usage mistakes print one line
 * and exit 2; errors of the work itself exit 1. Importing it runs nothing: bin.ts runs it as the
 * process, and the tests call `main` in-process with an io of their own.
 */
import { CommanderError } from 'commander';
import { printable } from '../printable.ts';
import { registerAccountCommands } from './account-commands.ts';
import { registerAccountLimitCommands } from './account-limit-commands.ts';
import { registerActivityCommands } from './activity-commands.ts';
import { registerBackupCommand } from './backup-command.ts';
import { LocProgram, type CliIo } from './cli-io.ts';
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
  const program = new LocProgram(io)
    .description('loc: location codes for 3 m cells, the API service and its operator tools')
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // Commander quotes a refused argument as given: what could recolour the terminal or hide text is escaped.
      outputError: (text, write) => write(`${printable(text.split('\n')[0])} (see --help)\n`),
    });
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
export async function main(argv: string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return program.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
}
