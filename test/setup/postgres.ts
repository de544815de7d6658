/**
 * One PostgreSQL for the whole vitest run, with loc's migrated template on it (test/support/
 * postgres.ts, `startRun`): handed to every test file, which makes its databases there; at the end,
 * a cluster started for the run is stopped and removed, and on a server that was found nothing of
 * the run's is left.
 *
 * Each project of a run that lists this file loads it anew: the run is kept on the process instead,
 * so that they all share one, which the last of them to finish ends.
 */
import type { TestProject } from 'vitest/node';
import { startRun } from '../support/postgres.ts';

interface Held {
  started: ReturnType<typeof startRun>;
  holders: number;
}

const HELD = Symbol.for('loc.test.postgres');
const shared = globalThis as typeof globalThis & { [HELD]?: Held };

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const held = (shared[HELD] ??= { started: startRun(), holders: 0 });
  held.holders++;
  const { provided, close } = await held.started;
  provide('postgres', provided);
  return async () => {
    if (--held.holders > 0) return;
    delete shared[HELD];
    await close();
  };
}
