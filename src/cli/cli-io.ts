/**
 * What one run of `loc` reads and writes: the environment its settings come from, and its stdout and
 * stderr. The run's root command holds them, with the exit code its commands set, and every command
 * reaches them through its root: nothing of a run is kept at module level, so that runs may go on at
 * once in one process (the tests do). bin.ts gives a run the process's own.
 */
import { Command, CommanderError } from 'commander';
import { printable } from '../printable.ts';

export interface CliIo {
  /** The whole environment of the run: the settings are read from it alone. */
  env: Record<string, string | undefined>;
  /** Writes text to the run's stdout. */
  stdout: (text: string) => void;
  /** Writes text to the run's stderr. */
  stderr: (text: string) => void;
}

/** The root command of one run of `loc`. */
export class LocProgram extends Command {
  /** What the run exits with, unless commander ends it first (main.ts). */
  exitCode = 0;

  constructor(
    readonly io: CliIo,
    name = 'loc',
  ) {
    super(name);
  }
}

/**
 * `program` set up as the root of a run: usage mistakes are thrown to runProgram rather than exiting
 * the process, and every message goes through the run's io. Its subcommands inherit this.
 */
export function rootProgram(program: LocProgram): LocProgram {
  return program
    .exitOverride()
    .configureOutput({
      writeOut: program.io.stdout,
      writeErr: program.io.stderr,
      // Commander quotes a refused argument as given: what could recolour the terminal or hide text is escaped.
      outputError: (text, write) => write(`${printable(text.split('\n')[0])} (see --help)\n`),
    });
}

/** Runs `program` with the arguments `argv` (without node and the script); resolves with the exit code: usage mistakes 2. */
export async function runProgram(program: LocProgram, argv: string[]): Promise<number> {
  try {
    await program.parseAsync(argv, { from: 'user' });
    return program.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
}

function rootOf(command: Command): LocProgram {
  let root = command;
  while (root.parent !== null) root = root.parent;
  if (!(root instanceof LocProgram)) throw new Error(`the command ${command.name()} is not part of a run of loc`);
  return root;
}

/** The io of the run `command` is part of. */
export const ioOf = (command: Command): CliIo => rootOf(command).io;

/** Sets the exit code of the run `command` is part of. */
export function setExitCode(command: Command, code: number): void {
  rootOf(command).exitCode = code;
}

/** For repeatable options: `--origin a --origin b`. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
