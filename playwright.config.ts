/**
 * The browser suite (`npm run e2e`, part of `npm test`): e2e/*.spec.ts in Chromium against the real,
 * built service and demo, which e2e/global-setup.ts starts with offline tiles. One worker: the
 * machines that run it have two cores, and every test already runs a browser, a service and its
 * frames. No retries: a test that needs one is a bug to fix.
 */
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium.ts';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // Screenshots of every style and the traces of failed tests: kept until the next run.
  outputDir: 'test-results/e2e',
  reporter: [['list'], ['./e2e/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    viewport: { width: 1000, height: 800 },
    trace: 'retain-on-failure',
  },
});
