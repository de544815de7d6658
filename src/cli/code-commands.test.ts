/**
 * `loc encode`, `loc decode` and `loc neighbours`, run in-process (test/support/cli.ts): one JSON
 * object on stdout, or one on stderr with exit 1 for bad input and exit 2 for a usage mistake.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.ts';
import { neighbours } from '../code/index.ts';

const run = (...args: string[]) => runCli({}, ...args);

describe('loc encode / loc decode / loc neighbours', () => {
  it('encodes a point, negative coordinates included, to one JSON object', async () => {
    const { code, stdout } = await run('encode', '-33.8568', '151.2153');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ loc_code: expect.stringMatching(/^AU-[0-9A-Z]{4}-[0-9A-Z]{4}$/), country_code: 'AU' });
    expect(Object.keys(result.cell).sort()).toEqual(['east', 'north', 'south', 'west']);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('decodes a code written loosely', async () => {
    const encoded = JSON.parse((await run('encode', '48.8584', '2.2945')).stdout);
    const { code, stdout } = await run('decode', ` ${encoded.loc_code.toLowerCase().replaceAll('-', '')} `);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(encoded);
  });

  it("prints a code's eight neighbours, clockwise from north, as docs/code-format.md shows", async () => {
    const { code, stdout } = await run('neighbours', 'fr0rmbcly0');
    expect(code).toBe(0);
    expect(stdout).toBe(`${JSON.stringify(neighbours('FR-0RMB-CLY0'))}\n`);
    expect(Object.keys(JSON.parse(stdout))).toEqual(['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw']);
    const docs = readFileSync(new URL('../../docs/code-format.md', import.meta.url), 'utf8');
    expect(docs).toContain(`$ loc neighbours FR-0RMB-CLY0\n${stdout}`);
  });

  it('prints null for a neighbour without a code', async () => {
    // A cell of the southernmost row of Malta's codes, at sea south of Valletta: below it, no code.
    const { code, stdout } = await run('neighbours', 'MT-0001-00KH');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ n: 'MT-0001-01KH', e: 'MT-0001-00KI', se: null, s: null, sw: null, w: 'MT-0001-00KG' });
  });

  it('exits 1 with a JSON error on bad input', async () => {
    for (const [args, expected] of [
      [['encode', '91', '0'], 'validation_error'],
      [['encode', 'abc', '0'], 'validation_error'],
      [['encode', '1e2', '0'], 'validation_error'],
      [['encode', '0', '0'], 'unsupported_location'],
      [['decode', 'FR-0RMB'], 'invalid_code'],
      [['decode', 'ZZ-0000-0000'], 'code_not_found'],
      [['neighbours', 'FR-0RMB'], 'invalid_code'],
      [['neighbours', 'ZZ-0000-0000'], 'code_not_found'],
    ] as const) {
      const { code, stdout, stderr } = await run(...args);
      expect(code, args.join(' ')).toBe(1);
      expect(stdout).toBe('');
      expect(JSON.parse(stderr)).toEqual({ code: expected, message: expect.any(String) });
    }
  });

  it('takes numbers with an exponent, as JavaScript writes small ones', async () => {
    const plain = JSON.parse((await run('encode', '48.8584', '2.2945')).stdout);
    expect(JSON.parse((await run('encode', '4.88584e1', '2294.5E-3')).stdout)).toEqual(plain);
    expect(JSON.parse((await run('encode', '1e400', '0')).stderr)).toMatchObject({ code: 'validation_error', message: 'lat must be a finite number from -90 to 90, received Infinity.' });
  });

  it('exits 2 with a JSON error on a usage mistake of encode, decode or neighbours', async () => {
    for (const [args, message] of [
      [['encode', '1'], "missing required argument 'lng'. See --help."],
      [['encode', '1', '2', '3'], "too many arguments for 'encode'. Expected 2 arguments but got 3. See --help."],
      [['decode'], "missing required argument 'code'. See --help."],
      [['neighbours', 'FR-0RMB-CLY0', 'FR-0RMB-CLY1'], "too many arguments for 'neighbours'. Expected 1 argument but got 2. See --help."],
    ] as const) {
      const { code, stdout, stderr } = await run(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(JSON.parse(stderr)).toEqual({ code: 'validation_error', message });
    }
  });

  it('exits 2 with one line on another usage mistake, and has --help on every subcommand', async () => {
    const { code, stderr } = await run('bogus');
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    for (const sub of ['encode', 'decode', 'neighbours']) {
      const { code, stdout } = await run(sub, '--help');
      expect(code).toBe(0);
      expect(stdout).toContain(`Usage: loc ${sub}`);
    }
  });
});
