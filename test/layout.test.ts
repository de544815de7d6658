/**
 * The tree keeps the shape docs/architecture.md describes where a rule can be checked by reading it:
 * no shipped module grows past about 300 lines (a module that does, holds two concepts; split it by
 * concept, not by line count), no function past 80 (one that does, does several things: name them),
 * and src/ holds only what ships, with unit tests beside their source. The import boundaries are
 * checked by dependency-cruiser (`npm run boundaries`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionSpans } from './support/function-length.ts';

/** The most lines a shipped module may have. */
const MAX_LINES = 300;
/** The most lines a shipped function may span, from its first line to its last. */
const MAX_FUNCTION_LINES = 80;

/**
 * The shipped functions allowed past MAX_FUNCTION_LINES: flat tables only (a command's option
 * declarations, a catalogue), none today. The test holds the list to exactly what is long, so a new
 * long function fails it, and so does one listed that is short now.
 */
const LONG_TABLES: string[] = [];

/** Every file under `dir`, as paths relative to the checkout. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const shipped = ['src', 'iframe-app', 'panel-app', 'demo', 'packages/loc-js/src'].flatMap(files).filter((path) => /\.ts$/.test(path) && !/\.(test|d)\.ts$/.test(path));

describe('layout', () => {
  it(`keeps every shipped module within ${MAX_LINES} lines`, () => {
    expect(shipped.length).toBeGreaterThan(50);
    const long = shipped
      .map((path) => ({ path, lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it(`keeps every shipped function within ${MAX_FUNCTION_LINES} lines, but for those listed`, () => {
    const long = shipped.flatMap((path) =>
      functionSpans(path, readFileSync(path, 'utf8')).filter(({ lines }) => lines > MAX_FUNCTION_LINES).map(({ name }) => `${path}: ${name}`),
    );
    expect(long.sort()).toEqual([...LONG_TABLES].sort());
  });

  it('keeps test support, suites and benchmarks out of src/', () => {
    const misplaced = files('src').filter((path) => /(^|\/)(support|conformance|stress|bench|fixtures?)(\/|\.ts$)|\.spec\.ts$/.test(path));
    expect(misplaced).toEqual([]);
  });
});
