/**
 * `loc encode <lat> <lng>`, `loc decode <code>` and `loc neighbours <code>`: the codec from the shell.
 * Each prints one JSON object on stdout; on bad input it prints `{ "code", "message" }` on stderr and exits 1 — and a
 * usage mistake (an argument missing or too many) is JSON too, exit 2, so that a script reading
 * stderr always gets an object.
 */
import type { Command } from 'commander';
import { decode, encode, neighbours } from '../code/index.ts';
import { LocError } from '../errors.ts';
import { ioOf, setExitCode } from './cli-io.ts';

/** Commander's own usage errors, as the JSON a script expects from these commands. */
const JSON_USAGE_ERRORS = {
  outputError: (text: string, write: (text: string) => void) => {
    const said = text.trim().replace(/^error: /, '');
    write(`${JSON.stringify({ code: 'validation_error', message: `${said}${said.endsWith('.') ? '' : '.'} See --help.` })}\n`);
  },
};

export function registerCodeCommands(program: Command): void {
  program
    .command('encode')
    .configureOutput(JSON_USAGE_ERRORS)
    .description('print the code of the 3 m cell that holds a point')
    .argument('<lat>', 'latitude in degrees, -90 to 90')
    .argument('<lng>', 'longitude in degrees, -180 to 180')
    .action((lat: string, lng: string, _options: unknown, command: Command) => run(command, () => encode(parseNumber(lat, 'lat'), parseNumber(lng, 'lng'))));

  program
    .command('decode')
    .configureOutput(JSON_USAGE_ERRORS)
    .description('print the cell of a code (case, spaces and hyphens are forgiven)')
    .argument('<code>', 'a code like FR-0RMB-CLY0')
    .action((code: string, _options: unknown, command: Command) => run(command, () => decode(code)));

  program
    .command('neighbours')
    .configureOutput(JSON_USAGE_ERRORS)
    .description("print the codes of a cell's eight neighbours, n to nw clockwise (null: no code)")
    .argument('<code>', 'a code like FR-0RMB-CLY0')
    .action((code: string, _options: unknown, command: Command) => run(command, () => neighbours(code)));
}

/**
 * Numbers as JSON and JavaScript write them, exponents included (`String(0.0000001)` is "1e-7");
 * "0x10", "48,85", "" or "12abc" are not coordinates. A number too large to be finite is refused by
 * encode's range check.
 */
function parseNumber(text: string, field: string): number {
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text.trim())) {
    throw new LocError('validation_error', `${field} must be a decimal number, received ${JSON.stringify(text)}.`, field);
  }
  return Number(text);
}

function run(command: Command, work: () => object): void {
  const io = ioOf(command);
  try {
    io.stdout(`${JSON.stringify(work())}\n`);
  } catch (error) {
    if (!(error instanceof LocError)) throw error;
    io.stderr(`${JSON.stringify({ code: error.code, message: error.message })}\n`);
    setExitCode(command, 1);
  }
}
