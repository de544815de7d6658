/**
 * The Chromium that the browser suite and the embed benchmark run: the system's when there is one —
 * `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium` (which `.ci/run` installs when it is missing) —
 * and Playwright's own build otherwise. Nothing here downloads a browser: Playwright's build must have
 * been installed beforehand with `npx playwright install chromium`.
 */
import { existsSync } from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

/** Where Debian's `chromium` package puts the browser. */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * No sandbox, because CI runs as root, where Chromium's sandbox refuses to start; and none of the
 * browser's own traffic (updates, sync, field trials, QUIC probes): the suite must never leave the
 * machine, and a request of the browser's own would be noise in the network assertions.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** The executable to launch; undefined means Playwright's own Chromium. */
export function chromiumExecutable(env: Record<string, string | undefined> = process.env): string | undefined {
  const chosen = env.CHROMIUM_PATH?.trim();
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`CHROMIUM_PATH names ${JSON.stringify(chosen)}, which does not exist.`);
    return chosen;
  }
  return existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;
}

export function chromiumLaunchOptions(): LaunchOptions {
  const executablePath = chromiumExecutable();
  return executablePath === undefined ? { args: CHROMIUM_ARGS } : { executablePath, args: CHROMIUM_ARGS };
}
