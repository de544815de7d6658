/**
 * The browser suite (`npm run e2e`, part of `npm test`): e2e/*.spec.ts in Chromium against the real,
 * built service and demo, which e2e/global-setup.ts starts with offline tiles. Two workers, each
 * taking whole spec files: on the two-core machines that run it, the suite is bound by Chromium's
 * CPU, and a third worker or splitting files finishes no sooner (docs/testing.md has the figures).
 * No retries: a test that needs one is a bug to fix.
 */
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium.ts';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // Screenshots of every style, and the trace and a screenshot of each failed test: kept until the next run.
  outputDir: 'test-results/e2e',
  reporter: [['list'], ['./e2e/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    viewport: { width: 1000, height: 800 },
    // Actions, console and network; without the screencast, which cost every test a tenth of its
    // time, nor the DOM snapshots before and after each action, which cost a tenth of the browsers'
    // CPU. The failure's own screenshot and accessibility snapshot are taken apart; `--trace on`
    // records the snapshots when a failure needs them.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
  },
});
