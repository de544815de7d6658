/**
 * The benchmarks' view of processes: a spawned `loc serve` and the CPU time it and the database
 * spend, read from /proc, so that a row can say what a request costs loc, not just how fast this
 * loaded machine answered.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { spawnProcess, type Spawned } from '../test/support/loc-process.ts';

const CLOCK_TICKS = 100;

/** User + system CPU ms of the processes whose pids are given. */
export function cpuMs(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      // Gone meanwhile: its time is lost to the figure, which the notes' ranges show.
    }
  }
  return total;
}

/** `pid` and its children (a cluster primary's workers). */
export function family(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children === '' ? [] : children.split(' ').map(Number))];
  } catch {
    return [pid];
  }
}

/** Every process named `name` on the machine (PostgreSQL's backends, redis-server). */
export function processesNamed(name: string): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
    } catch {
      return false;
    }
  });
}

/** `loc serve` on a free loopback port with `env`, once it is ready. */
export async function serveLoc(env: Record<string, string>): Promise<{ url: string; process: Spawned }> {
  const child = spawnProcess(process.execPath, ['dist/cli.js', 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { LOC_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { url: (await child.ready()).url, process: child };
}
