/**
 * The API's latency during a flood of new offline tiles (the budget: a lookup's p99 during the flood
 * at most 2× its p99 when idle). Drawing a tile costs 5–15 ms; wherever it runs, a public client asking for
 * tiles nobody asked for before — within the budget of LOC_TILE_RENDERS_PER_SECOND, so that every one
 * is drawn — must not make a key's lookups wait.
 *
 * The built service with offline tiles and the default budget. A key-authenticated client sends
 * lookups at a steady rate on keep-alive connections, never waiting for an answer before the next is
 * due, so that a stall of the server delays every lookup sent during it; each lookup's latency is
 * measured from its sending to the end of its answer, in µs. Rounds alternate an idle spell with a
 * spell in which another client, without a key, asks for new tiles at the budget's rate. Each spell
 * gives a p99; the median of the flooded spells' is compared with the median of the idle spells', so
 * that a burst of other work on the machine, which can stall one spell for a tenth of a second, moves
 * neither.
 *
 * Run alone with `node --import tsx bench/tiles.ts`; `npm run bench` includes it.
 */
import { execFileSync } from 'node:child_process';
import { Agent, get } from 'node:http';
import { pathToFileURL } from 'node:url';
import { ROOT, createKey, newDataDir, removeDataDir, startService } from '../e2e/services.ts';
import { encode } from '../src/code/index.ts';
import { OPTIONS } from '../src/server/config.ts';
import { STYLE_NAMES } from '../src/embed/style-names.ts';
import { markdownTable, type BenchRow } from './report.ts';

/** Lookups sent per second, in both spells. */
const LOOKUPS_PER_SECOND = 1000;
/** Seconds of each spell, per round. */
const SPELL_S = Number(process.env.LOC_BENCH_SECONDS ?? 2);
const ROUNDS = 7;
/** The flood's rate: the budget's default, so that every tile it asks for is drawn. */
const TILES_PER_SECOND = Number(OPTIONS.tileRendersPerSecond.default);
/** A second reading of the budget, looser where latencies are small: the flooded p99 within 2× the idle one plus this, µs. */
const SLACK_US = 2000;

interface Spell {
  /** The p99 of its lookups' latencies, µs. */
  p99: number;
  lookups: number;
  /** Lookups answered with anything but 200. */
  failed: number;
  /** Tile answers by status. */
  tiles: Map<number, number>;
}

/**
 * GETs `paths` in turn, `rate` a second for `seconds`, each sent when it is due whatever the answers
 * before it; resolves once all are answered with each one's status and latency (µs).
 */
function paced(base: URL, agent: Agent, paths: () => string, headers: Record<string, string>, rate: number, seconds: number): Promise<{ status: number; us: number }[]> {
  const total = Math.round(rate * seconds);
  const answers: { status: number; us: number }[] = [];
  return new Promise((resolve, reject) => {
    let sent = 0;
    const start = performance.now();
    const send = (): void => {
      const sentAt = performance.now();
      get(new URL(paths(), base), { agent, headers }, (response) => {
        response.resume();
        response.once('end', () => {
          answers.push({ status: response.statusCode ?? 0, us: (performance.now() - sentAt) * 1000 });
          if (answers.length === total) resolve(answers);
        });
      }).once('error', reject);
    };
    const tick = (): void => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      while (sent < due) {
        send();
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

export async function benchTileFlood(): Promise<BenchRow> {
  execFileSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const dataDir = newDataDir();
  // A key whose hourly limit no spell reaches (an account is created with it).
  const { apiKey } = createKey(dataDir, { account: 'bench', origins: [], hourlyLimit: 1_000_000_000 });
  const service = await startService(dataDir);
  const base = new URL(service.url);
  const lookups = new Agent({ keepAlive: true, maxSockets: 64 });
  const flood = new Agent({ keepAlive: true, maxSockets: 64 });
  try {
    const codes = Array.from({ length: 500 }, () => encode(45 + Math.random() * 3, 1 + Math.random() * 4).loc_code);
    let next = 0;
    const lookupPath = () => `/v1/loc/lookup/${codes[next++ % codes.length]}`;
    const asked = new Set<string>();
    /** A tile of Europe at zoom 10 to 13, in any style, never asked for before. */
    const newTile = (): string => {
      for (;;) {
        const z = 10 + Math.floor(Math.random() * 4);
        const n = 2 ** z;
        const x = Math.floor(((175 + Math.random() * 25) / 360) * n);
        const y = Math.floor((0.28 + Math.random() * 0.06) * n);
        const path = `/tiles/${STYLE_NAMES[Math.floor(Math.random() * STYLE_NAMES.length)]}/${z}/${x}/${y}.png`;
        if (!asked.has(path)) {
          asked.add(path);
          return path;
        }
      }
    };
    const spell = async (flooded: boolean): Promise<Spell> => {
      const [answers, tiles] = await Promise.all([
        paced(base, lookups, lookupPath, { 'x-api-key': apiKey }, LOOKUPS_PER_SECOND, SPELL_S),
        flooded ? paced(base, flood, newTile, {}, TILES_PER_SECOND, SPELL_S) : [],
      ]);
      const statuses = new Map<number, number>();
      for (const { status } of tiles) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const latencies = answers.map((a) => a.us).sort((a, b) => a - b);
      return { p99: percentile(latencies, 0.99), lookups: answers.length, failed: answers.filter((a) => a.status !== 200).length, tiles: statuses };
    };

    // Warm: whatever draws tiles, with both land outlines loaded; then JIT and SQLite's page cache.
    await paced(base, flood, newTile, {}, 2, 1);
    await paced(base, lookups, lookupPath, { 'x-api-key': apiKey }, LOOKUPS_PER_SECOND, 2);
    const idle: Spell[] = [];
    const flooded: Spell[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in the other order, so that neither spell always follows the other.
      for (const floods of round % 2 === 0 ? [false, true] : [true, false]) (floods ? flooded : idle).push(await spell(floods));
    }

    const p99s = (spells: Spell[]) => spells.map((s) => s.p99).sort((a, b) => a - b);
    const [calm, busy] = [p99s(idle), p99s(flooded)];
    const p99 = { idle: percentile(calm, 0.5), flood: percentile(busy, 0.5) };
    const count = (spells: Spell[], field: 'lookups' | 'failed') => spells.reduce((sum, s) => sum + s[field], 0);
    const failed = count(idle, 'failed') + count(flooded, 'failed');
    const tiles = new Map<number, number>();
    for (const s of flooded) for (const [status, n] of s.tiles) tiles.set(status, (tiles.get(status) ?? 0) + n);
    const tileCounts = [...tiles].sort(([a], [b]) => a - b).map(([status, n]) => `${n} × ${status}`).join(', ');
    const slack = 2 * p99.idle + SLACK_US;
    const us = (value: number) => `${Math.round(value).toLocaleString('en-US')} µs`;
    const range = (sorted: number[]) => `${us(sorted[0])}–${us(sorted[sorted.length - 1])}`;
    return {
      group: 'api',
      name: 'GET /v1/loc/lookup/{code}: p99 during a flood of new offline tiles',
      ours: p99.flood,
      peerName: 'the same lookups, no flood (p99)',
      peer: p99.idle,
      unit: 'µs',
      higherIsBetter: false,
      budget: 2,
      note:
        `median of ${ROUNDS} spells' p99 each (${range(busy)} vs ${range(calm)}), ${SPELL_S} s spells alternating; ${LOOKUPS_PER_SECOND} lookups/s with a key, ` +
        `latency from sending to the end of the answer (${count(flooded, 'lookups')} and ${count(idle, 'lookups')} lookups); the flood: ${TILES_PER_SECOND} new tiles/s ` +
        `without a key (${tileCounts}); within 2 × idle + 2 ms (${us(slack)}): ${p99.flood <= slack ? 'yes' : 'no'}` +
        (failed > 0 ? `; ${failed} lookups failed` : ''),
    };
  } finally {
    lookups.destroy();
    flood.destroy();
    await service.stop();
    removeDataDir(dataDir);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${markdownTable([await benchTileFlood()])}\n`);
}
