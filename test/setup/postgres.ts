/**
 * One PostgreSQL for the whole vitest run, with loc's migrated template on it (test/support/
 * postgres.ts, `startRun`): handed to every test file, which makes its databases there; at the end,
 * a cluster started for the run is stopped and removed, and on a server that was found nothing of
 * the run's is left.
 */
import type { TestProject } from 'vitest/node';
import { startRun } from '../support/postgres.ts';

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const { provided, close } = await startRun();
  provide('postgres', provided);
  return close;
}
