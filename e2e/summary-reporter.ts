/**
 * Ends the browser suite with one plain line, `playwright: N passed, N failed`, that any CI can read
 * without parsing Playwright's own summary (test/setup/summary-reporter.ts does the same for
 * vitest). A test that passed only on a retry counts as failed: the suite runs without retries.
 */
import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';

export default class SummaryReporter implements Reporter {
  private root: Suite | undefined;

  onBegin(_config: FullConfig, suite: Suite): void {
    this.root = suite;
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
    process.stdout.write(`playwright: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
