/**
 * Ends the browser suite with the slowest spec files and tests (test/setup/slowest.ts, as vitest's
 * reporter does), then one plain line, `playwright: N passed, N failed`, that any CI can read
 * without parsing Playwright's own summary. A test that passed only on a retry counts as failed: the
 * suite runs without retries.
 */
import { relative } from 'node:path';
import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { slowestReport, type Timed } from '../test/setup/slowest.ts';

export default class SummaryReporter implements Reporter {
  private root: Suite | undefined;
  private readonly fileTimes = new Map<string, number>();
  private readonly tests: Timed[] = [];

  onBegin(_config: FullConfig, suite: Suite): void {
    this.root = suite;
  }

  /** Every run of a test counts, so a file's time is what its tests cost the workers (hooks included). */
  onTestEnd(test: TestCase, result: TestResult): void {
    const file = relative(process.cwd(), test.location.file);
    this.fileTimes.set(file, (this.fileTimes.get(file) ?? 0) + result.duration);
    this.tests.push({ name: `${file}:${test.location.line} > ${test.titlePath().slice(3).join(' > ')}`, ms: result.duration });
  }

  onEnd(): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const test of this.root?.allTests() ?? []) {
      const outcome = test.outcome();
      if (outcome === 'expected') passed++;
      else if (outcome === 'skipped') skipped++;
      else failed++;
    }
    const files = [...this.fileTimes].map(([name, ms]) => ({ name, ms }));
    process.stdout.write(`\n${slowestReport('playwright', files, this.tests)}\n\n`);
    process.stdout.write(`playwright: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
