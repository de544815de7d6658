/**
 * The slowest files and tests of a run, printed by both suites' summary reporters (vitest's here,
 * Playwright's in e2e/), so that the next slow test is seen in the run that brought it rather than
 * when the whole loop has grown by minutes.
 */

/** How many of each the report lists. */
export const SLOWEST_SHOWN = 20;

/** A file or a test and the time it took, in milliseconds. */
export interface Timed {
  name: string;
  ms: number;
}

/** `12.3 s` or `850 ms`, right-aligned to one width. */
export function formatDuration(ms: number): string {
  const text = ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
  return text.padStart(8);
}

/** The `shown` longest of `entries`, longest first; ties keep their order. */
export function slowest(entries: readonly Timed[], shown = SLOWEST_SHOWN): Timed[] {
  return [...entries].sort((a, b) => b.ms - a.ms).slice(0, shown);
}

/**
 * The report: a heading per list, then one line per entry. `suite` names the suite (`vitest`,
 * `playwright`); the files' total says how much of the run the list stands for.
 */
export function slowestReport(suite: string, files: readonly Timed[], tests: readonly Timed[], shown = SLOWEST_SHOWN): string {
  const total = files.reduce((sum, file) => sum + file.ms, 0);
  const list = (entries: Timed[]) => entries.map((entry) => `${formatDuration(entry.ms)}  ${entry.name}`);
  return [
    `${suite}: the ${Math.min(shown, files.length)} slowest of ${files.length} files (${formatDuration(total).trim()} in all)`,
    ...list(slowest(files, shown)),
    `${suite}: the ${Math.min(shown, tests.length)} slowest of ${tests.length} tests`,
    ...list(slowest(tests, shown)),
  ].join('\n');
}
