/**
 * `loc keys usage` and `loc audit`, run in-process (test/support/cli.ts) on SQLite: the figures a real
 * server tallied (closed first, which adds what it holds), and the audit entries the CLI's own
 * changes append — who, from where, what — newest first, by account, page by page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CommandResult } from '../../test/support/cli.ts';
import { issueKey } from '../auth/keys.ts';
import { HOUR_MS } from '../durations.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openSqliteStore } from '../store/sqlite/sqlite.ts';
import type { AuditEntry } from '../store/audit-store.ts';
import type { ApiKey } from '../store/store.ts';

let dataDir: string;
let key: ApiKey;
const loc = (...args: string[]): Promise<CommandResult> => runCli({ LOC_DATA_DIR: dataDir }, ...args);
const parsed = <T>(result: CommandResult): T => {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
};

/** How many calendar days (UTC) the hours of the last `days` days, to the end of this hour, touch: one more than `days` but at 23:00. */
function daysTouched(days: number): number {
  const to = (Math.floor(Date.now() / HOUR_MS) + 1) * HOUR_MS;
  const touched = new Set<number>();
  for (let hour = to - days * 24 * HOUR_MS; hour < to; hour += HOUR_MS) touched.add(Math.floor(hour / (24 * HOUR_MS)));
  return touched.size;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'loc-activity-'));
  const app = await buildApp(loadConfig({ LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'silent' }));
  try {
    const acme = await app.store.createAccount({ name: 'acme', partner: true, createdAt: Date.now() });
    await app.store.createAccount({ name: 'globex', partner: true, createdAt: Date.now() });
    const issued = await issueKey(app.store, { accountId: acme.id, origins: ['https://shop.example'], ipRanges: ['10.0.0.0/8'], hourlyLimit: 3, createdAt: Date.now() });
    key = issued.key;
    const secret = issued.secret;
    const lookup = (headers: Record<string, string> = {}, remoteAddress = '10.0.0.9') =>
      app.inject({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret, ...headers }, remoteAddress });
    for (let i = 0; i < 3; i++) expect((await lookup()).statusCode).toBe(200);
    expect((await lookup()).statusCode).toBe(429);
    expect((await lookup({ origin: 'https://elsewhere.example' })).statusCode).toBe(403);
    expect((await lookup({ origin: 'https://elsewhere.example' })).statusCode).toBe(403);
    expect((await lookup({}, '192.0.2.1')).statusCode).toBe(403);
  } finally {
    // Closing adds what the server tallied to the store.
    await app.close();
  }
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('loc keys usage', () => {
  it('prints the figures the server counted, by kind and reason, and the last use, as JSON', async () => {
    const report = parsed<{ keyId: string; from: number; to: number; hours: Array<{ hour: number; server: number; embed: number; refused: number }>; totals: unknown; lastUse: unknown; keptDays: number }>(
      await loc('keys', 'usage', key.id, '--json'),
    );
    expect(report.keyId).toBe(key.id);
    expect(report.keptDays).toBe(35);
    expect(report.hours).toHaveLength(7 * 24);
    expect(report.to - report.from).toBe(7 * 24 * HOUR_MS);
    expect(report.totals).toEqual({ server: { used: 3, refused: { limit: 1, origin: 2, ip: 1, inactive: 0 } }, embed: { used: 0, refused: { limit: 0, origin: 0, ip: 0, inactive: 0 } } });
    expect(report.hours.filter((hour) => hour.server + hour.embed + hour.refused > 0)).toEqual([{ hour: expect.any(Number), server: 3, embed: 0, refused: 4 }]);
    expect(report.lastUse).toEqual({ keyId: key.id, at: expect.any(Number), origin: null, ip: '10.0.0.9' });
  });

  it('prints a table for people: per day, or per hour with traffic', async () => {
    const [daily, hourly, month] = await Promise.all([loc('keys', 'usage', key.id), loc('keys', 'usage', key.id, '--hourly'), loc('keys', 'usage', key.id, '--days', '35')]);
    expect(daily.stdout).toMatch(/^server calls +3 +4 +1 +2 +1 +0$/m);
    expect(daily.stdout).toMatch(/^embed traffic +0 +0 +0 +0 +0 +0$/m);
    expect(daily.stdout).toMatch(/^Last used: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, IP 10\.0\.0\.9\.$/m);
    expect(daily.stdout.match(/^\d{4}-\d\d-\d\d +\d+ +\d+ +\d+$/gm)).toHaveLength(daysTouched(7));
    expect(hourly.stdout.match(/^\d{4}-\d\d-\d\d \d\d:00 +3 +0 +4$/gm)).toHaveLength(1);
    expect(month.stdout.match(/^\d{4}-\d\d-\d\d +\d+ +\d+ +\d+$/gm)).toHaveLength(daysTouched(35));
  });

  it('prints a stored address that could hide or recolour text as escapes (rows from before addresses were checked)', async () => {
    const store = openSqliteStore(dataDir, { create: false });
    let junk: ApiKey;
    try {
      junk = (await issueKey(store, { accountId: key.accountId, createdAt: Date.now() })).key;
      await store.panel.recordKeyUses([{ keyId: junk.id, at: Date.now(), origin: null, ip: '\u001b[2J10.0.0.1\u202e' }]);
    } finally {
      await store.close();
    }
    const usage = await loc('keys', 'usage', junk.id);
    expect(usage.code).toBe(0);
    expect(usage.stdout).toMatch(/^Last used: .* UTC, IP \\u001b\[2J10\.0\.0\.1\\u202e\.$/m);
  });

  it('refuses more days than are kept (usage, exit 2), and a key that does not exist (exit 1)', async () => {
    const [tooMany, missing] = await Promise.all([loc('keys', 'usage', key.id, '--days', '36'), loc('keys', 'usage', 'key_missing')]);
    expect(tooMany).toMatchObject({ code: 2, stdout: '' });
    expect(tooMany.stderr).toMatch(/usage is kept 35 days/);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/No API key has the id "key_missing"/);
  });
});

describe('loc audit', () => {
  it('records each change the CLI makes, with who and from where, and nothing for one that changed nothing', async () => {
    // One at a time: the log's order is what is checked.
    expect((await loc('keys', 'disable', key.id)).code).toBe(0);
    expect((await loc('keys', 'disable', key.id)).code).toBe(0);
    expect((await loc('keys', 'origins', 'add', key.id, 'https://b.example')).code).toBe(0);
    expect((await loc('keys', 'set-limit', key.id, '--default', '--session-limit', '9')).code).toBe(0);
    expect((await loc('accounts', 'set-partner', 'globex', '--off')).code).toBe(0);
    expect((await loc('keys', 'origins', 'add', key.id, 'not an origin')).code).toBe(2);
    const entries = parsed<Array<AuditEntry & { account: string }>>(await loc('audit', '--json'));
    const who = { via: 'cli', actor: userInfo().username, source: hostname() };
    expect(entries.map(({ seq, at, accountId, ...rest }) => rest)).toEqual([
      { ...who, account: 'globex', action: 'account.partner_off', target: 'globex', details: {} },
      { ...who, account: 'acme', action: 'key.set_limits', target: key.id, details: { hourly_limit: null, session_limit: 9 } },
      { ...who, account: 'acme', action: 'key.origin_add', target: key.id, details: { origin: 'https://b.example' } },
      { ...who, account: 'acme', action: 'key.disable', target: key.id, details: {} },
    ]);
    expect(entries.map((entry) => entry.seq)).toEqual([...entries.map((entry) => entry.seq)].sort((a, b) => b - a));
  });

  it('filters by account, pages with --before, and prints a table for people', async () => {
    const all = parsed<AuditEntry[]>(await loc('audit', '--json'));
    const [acme, page, text, unknown] = await Promise.all([
      loc('audit', '--account', 'acme', '--json'),
      loc('audit', '--limit', '2', '--before', String(all[0].seq), '--json'),
      loc('audit', '--account', 'globex'),
      loc('audit', '--account', 'initech'),
    ]);
    expect(parsed<AuditEntry[]>(acme).map((entry) => entry.action)).toEqual(['key.set_limits', 'key.origin_add', 'key.disable']);
    expect(parsed<AuditEntry[]>(page).map((entry) => entry.seq)).toEqual([all[1].seq, all[2].seq]);
    expect(text.stdout).toMatch(/^SEQ +WHEN \(UTC\) +ACCOUNT +WHO +WHERE +WHAT$/m);
    expect(text.stdout).toContain(`CLI, ${hostname()}`);
    expect(text.stdout).toContain('took partner status from the account globex');
    expect(text.stdout).not.toContain('acme');
    expect(unknown).toMatchObject({ code: 1 });
  });
});
