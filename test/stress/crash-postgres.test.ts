/**
 * kill -9 with two servers on one PostgreSQL (scale-out.md §8 item 4): two built `loc serve`
 * processes on the same database, as behind a load balancer; 16 writers alternate between them,
 * issuing `generate` (with a label and an address) and `resolve` with `save: true` (with the key, and
 * with an embed session made through one server and used through both). Once at least 50 writes were
 * answered 2xx, one server is killed with SIGKILL at a random moment; requests to it then fail with a
 * socket error, as they must, and every other answer must be a 2xx. After each kill:
 *
 * - every acknowledged write is read back through the surviving server: by lookup, with its label and
 *   address, and as a row of the account;
 * - the killed server, started again on the same database, serves (health, and a lookup);
 * - the shared counters (request_counts) are exact: the writers' key has a finite hourly limit, no
 *   answer was 429, and each budget's `used` is at least what was acknowledged against it and at most
 *   that plus the requests left unanswered by the kill (counted before the kill, answer lost with it)
 *   and the key's leases: one lost with each killed process, one held by each live one.
 *
 * Two cycles in `npm test` (three in `npm run stress`), alternating the server killed, each on the data
 * the previous ones left: each server is killed once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopPostgres } from '../support/postgres.ts';
import { SpawnedServer, stormUntilKilled, dispose, ensureBuilt, leaseAtMost, scale, seedDataDir, type Seeded, type SeededKey } from './harness.ts';

const CYCLES = scale(2, 3);
/** Readers checking the acknowledged writes, as many as the storm's writers. */
const WRITERS = 16;
/**
 * The writers' key's hourly and embed limits: finite, and above what three storms send (a few hundred
 * writes each on 2 cores), so that any 429 is a miscount.
 */
const LIMIT = scale(20_000, 50_000);

type Via = 'generate' | 'resolve with key' | 'resolve with session';
/** The budget a write draws on: the key's hourly one, or (a session's resolves) the key's embed one. */
const budgetOf = (via: Via): 'server' | 'embed' => (via === 'resolve with session' ? 'embed' : 'server');

interface Ack {
  code: string;
  via: Via;
  label: string | null;
  address: string | null;
  /** The server that answered. */
  server: number;
}

let seeded: Seeded;
/** The writers' key, with the finite limits. */
let writer: SeededKey;
/** A key of the same account without limits, that reads back: its lookups do not touch the writer's budgets. */
let reader: SeededKey;
const servers: SpawnedServer[] = [];
const acks: Ack[] = [];
/** Per budget: answered 2xx, and unanswered (a socket error: the server died under the request). */
const sent = { server: { acked: 0, unanswered: 0 }, embed: { acked: 0, unanswered: 0 } };
/** Answers neither 2xx nor a socket error: none may come. */
const unexpected: string[] = [];
/** The server of each request that ended in a socket error, this cycle: only the killed one may have any. */
let socketErrors: number[] = [];
let written = 0;

beforeAll(async () => {
  ensureBuilt();
  seeded = await seedDataDir([{ account: 'acme', hourlyLimit: LIMIT, embedHourlyLimit: LIMIT }, { account: 'acme' }], { engine: 'postgres' });
  [writer, reader] = seeded.keys;
  servers.push(await SpawnedServer.start(seeded.dataDir, seeded.env), await SpawnedServer.start(seeded.dataDir, seeded.env));
});
afterAll(async () => {
  for (const server of servers) await server.kill('SIGKILL');
  await dispose(undefined, seeded?.dataDir, seeded?.database);
  await stopPostgres();
});

const post = (server: SpawnedServer, path: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** One write through server `n % 2`; its acknowledgement, or null. */
async function write(token: string): Promise<Ack | null> {
  const n = written++;
  const at = n % 2;
  const server = servers[at];
  const latitude = 44 + Math.floor(n / 1000) * 0.01;
  const longitude = 1 + (n % 1000) * 0.003;
  const label = `crash ${n}`;
  const address = `${n} rue du Crash, ${'ü'.repeat(n % 7)} Lyon`;
  const via: Via = (['generate', 'resolve with key', 'resolve with session'] as const)[n % 3];
  const count = sent[budgetOf(via)];
  try {
    const response = via === 'generate'
      ? await post(server, '/v1/loc/generate', { 'x-api-key': writer.secret }, { latitude, longitude, label, address })
      : await post(server, '/v1/embed/resolve', via === 'resolve with key' ? { 'x-api-key': writer.secret } : { authorization: `Bearer ${token}` }, {
        lat: latitude, lng: longitude, save: true,
      });
    const body = (await response.json()) as { loc_code: string; is_existing?: boolean; code?: string };
    if (!response.ok) {
      unexpected.push(`${via} through server ${at}: ${response.status} ${body.code}`);
      return null;
    }
    count.acked++;
    if (via === 'generate' && body.is_existing) {
      unexpected.push(`${via} through server ${at}: ${body.loc_code} already existed`);
      return null;
    }
    return { code: body.loc_code, via, label: via === 'generate' ? label : null, address: via === 'generate' ? address : null, server: at };
  } catch {
    // The connection died with the server: not acknowledged, but it may have been counted.
    count.unanswered++;
    socketErrors.push(at);
    return null;
  }
}

async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: seeded.database!.url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Every acknowledged write, read through `server`: lookup shows its label and address; the account has its row. */
async function verify(server: SpawnedServer): Promise<void> {
  const pending = [...acks];
  const failures: string[] = [];
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    for (let ack = pending.pop(); ack !== undefined; ack = pending.pop()) {
      const response = await fetch(`${server.url}/v1/loc/lookup/${ack.code}`, { headers: { 'x-api-key': reader.secret } });
      const body = (await response.json()) as { location?: { label: string | null; address: string } };
      if (response.status !== 200) failures.push(`${ack.code} (${ack.via} through ${ack.server}): lookup ${response.status}`);
      else if (ack.via === 'generate' && (body.location!.label !== ack.label || body.location!.address !== ack.address)) {
        failures.push(`${ack.code} (through ${ack.server}): label ${JSON.stringify(body.location!.label)}, address ${JSON.stringify(body.location!.address)}`);
      }
    }
  }));
  expect(failures).toEqual([]);
  // A resolve's save carries no label, so a lookup (which decodes any code) does not show it was kept: the row does.
  const saved = await withDatabase(async (client) =>
    new Set((await client.query<{ code: string }>('SELECT code FROM locations WHERE account_id = $1', [writer.accountId])).rows.map((row) => row.code)));
  expect(acks.filter((ack) => !saved.has(ack.code)).map((ack) => `${ack.code} (${ack.via} through ${ack.server})`)).toEqual([]);
}

/** The writers' key's counts in the shared rows, summed over the hours the run may straddle. */
async function counted(): Promise<{ server: number; embed: number; perHourMax: number }> {
  const rows = await withDatabase(async (client) =>
    (await client.query<{ kind: string; used: number }>("SELECT kind, used FROM request_counts WHERE key_id = $1 AND kind IN ('server', 'embed')", [writer.id])).rows);
  const sum = (kind: string) => rows.filter((row) => row.kind === kind).reduce((total, row) => total + Number(row.used), 0);
  return { server: sum('server'), embed: sum('embed'), perHourMax: Math.max(0, ...rows.map((row) => Number(row.used))) };
}

describe('SIGKILL of one of two servers on one PostgreSQL, during a write storm', () => {
  it(`loses no acknowledged write and no count over ${CYCLES} kills; the killed server comes back`, async () => {
    const created = await post(servers[0], '/v1/embed/sessions', { 'x-api-key': writer.secret }, { origin: 'https://shop.example', ttl: 3600 });
    expect(created.status).toBe(200);
    // The session's creation is one of the key's own requests.
    sent.server.acked++;
    const token = ((await created.json()) as { session_token: string }).session_token;
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const victim = (cycle - 1) % 2;
      const survivor = servers[1 - victim];
      const before = acks.length;
      socketErrors = [];
      const storm = await stormUntilKilled(() => write(token), (ack) => acks.push(ack), () => servers[victim].running, () => servers[victim].kill('SIGKILL'));
      expect(survivor.running).toBe(true);
      expect(unexpected).toEqual([]);
      expect(socketErrors.filter((at) => at !== victim)).toEqual([]);
      await verify(survivor);

      servers[victim] = await SpawnedServer.start(seeded.dataDir, seeded.env);
      const restarted = servers[victim];
      expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
      const last = acks.filter((ack) => ack.via === 'generate').at(-1)!;
      const lookup = await fetch(`${restarted.url}/v1/loc/lookup/${last.code}`, { headers: { 'x-api-key': reader.secret } });
      expect(lookup.status).toBe(200);
      expect(((await lookup.json()) as { location: { label: string } }).location.label).toBe(last.label);

      const counts = await counted();
      console.log(
        `crash on PostgreSQL ${cycle}/${CYCLES}: SIGKILL of server ${victim} ${Math.round(storm.killedAfterMs)} ms into the storm with ${storm.inFlight} writes in flight; ` +
          `${acks.length - before} acknowledged this cycle, all ${acks.length} so far read back through server ${1 - victim}; ` +
          `hourly used ${counts.server} (acknowledged ${sent.server.acked}, unanswered ${sent.server.unanswered}), ` +
          `embed used ${counts.embed} (acknowledged ${sent.embed.acked}, unanswered ${sent.embed.unanswered}); limit ${LIMIT}`,
      );
      // Exact counts: every acknowledged request was counted once, and nothing else was but what the kills
      // cut off and the key's leases (docs/operations.md): each killed process's, lost, and each live one's, held.
      const leased = { server: (cycle + servers.length) * leaseAtMost(LIMIT), embed: 0 };
      for (const kind of ['server', 'embed'] as const) {
        expect(counts[kind], kind).toBeGreaterThanOrEqual(sent[kind].acked);
        expect(counts[kind], kind).toBeLessThanOrEqual(sent[kind].acked + sent[kind].unanswered + leased[kind]);
      }
      expect(counts.perHourMax).toBeLessThanOrEqual(LIMIT);
    }
    expect(new Set(acks.map((ack) => ack.via)).size).toBe(3);
    expect(new Set(acks.map((ack) => ack.server)).size).toBe(2);
    // The session made before the first kill still works, through either server.
    for (const server of servers) {
      const after = await post(server, '/v1/embed/resolve', { authorization: `Bearer ${token}` }, { lat: 48.85, lng: 2.35, save: false });
      expect(after.status).toBe(200);
    }
    for (const server of servers) expect(server.output()).not.toMatch(/"level":(50|60)/);
  }, scale(100_000, 300_000));
});
