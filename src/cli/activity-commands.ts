/**
 * What happened, for operators: `loc keys usage KEY_ID`, a key's traffic as the partner panel charts
 * it (limits/usage-report.ts), and `loc audit`, the audit log of every change made in the panel or
 * with this CLI (audit/audit-log.ts). Both read the store only; `--json` gives scripts the figures.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { describeChange } from '../audit/audit-log.ts';
import { HOUR_MS } from '../durations.ts';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS, usageReport, type UsageReport } from '../limits/usage-report.ts';
import { printable } from '../printable.ts';
import type { AuditEntry } from '../store/audit-store.ts';
import { REFUSAL_REASONS, TRAFFIC_KINDS } from '../store/usage-store.ts';
import { ioOf, type CliIo } from './cli-io.ts';
import { OperatorError, isoDate, positiveInteger, printJson, printTable, requireAccount, withStore } from './operator-io.ts';

/** How many audit entries one `loc audit` prints unless told. */
const DEFAULT_AUDIT_LIMIT = 50;

function days(text: string): number {
  const value = positiveInteger(text);
  if (value > MAX_USAGE_DAYS) throw new InvalidArgumentError(`usage is kept ${MAX_USAGE_DAYS} days; give at most ${MAX_USAGE_DAYS}.`);
  return value;
}

const KIND_NAMES = { server: 'server calls', embed: 'embed traffic' } as const;
const REASON_HEADERS = { limit: 'LIMIT', origin: 'ORIGIN', ip: 'IP', inactive: 'DISABLED' } as const;

function printUsage(io: CliIo, report: UsageReport, hourly: boolean): void {
  io.stdout(`API key ${report.keyId}: usage from ${isoDate(report.from)} to ${isoDate(report.to)} UTC (hourly figures are kept ${MAX_USAGE_DAYS} days).\n`);
  printTable(
    io,
    ['TRAFFIC', 'COUNTED', 'REFUSED', ...REFUSAL_REASONS.map((reason) => REASON_HEADERS[reason])],
    TRAFFIC_KINDS.map((kind) => {
      const { used, refused } = report.totals[kind];
      return [KIND_NAMES[kind], String(used), String(REFUSAL_REASONS.reduce((sum, reason) => sum + refused[reason], 0)), ...REFUSAL_REASONS.map((reason) => String(refused[reason]))];
    }),
  );
  const use = report.lastUse;
  io.stdout(use === null ? 'Last used: never.\n' : `Last used: ${isoDate(use.at)} UTC${use.origin === null ? '' : ` from ${printable(use.origin)}`}, IP ${printable(use.ip)}.\n`);
  // Hours with traffic, or the days: a week of hours is 168 lines, most of them empty.
  const rows = new Map<number, { server: number; embed: number; refused: number }>();
  for (const hour of report.hours) {
    const at = hourly ? hour.hour : hour.hour - (hour.hour % (24 * HOUR_MS));
    const row = rows.get(at) ?? { server: 0, embed: 0, refused: 0 };
    row.server += hour.server;
    row.embed += hour.embed;
    row.refused += hour.refused;
    rows.set(at, row);
  }
  const shown = [...rows].filter(([, row]) => !hourly || row.server + row.embed + row.refused > 0);
  printTable(
    io,
    [hourly ? 'HOUR (UTC)' : 'DAY (UTC)', 'SERVER', 'EMBED', 'REFUSED'],
    shown.map(([at, row]) => [hourly ? isoDate(at).slice(0, 16) : isoDate(at).slice(0, 10), String(row.server), String(row.embed), String(row.refused)]),
  );
}

const where = (entry: AuditEntry): string => `${entry.via === 'panel' ? 'panel' : 'CLI'}, ${entry.source}`;

export function registerActivityCommands(program: Command, keys: Command): void {
  keys
    .command('usage')
    .description("show a key's traffic: requests per hour or day, server calls apart from embed traffic, refusals by reason, last use")
    .argument('<key-id>', 'the key id, key_…')
    .option('--days <n>', `how many days back, up to ${MAX_USAGE_DAYS} (default ${DEFAULT_USAGE_DAYS})`, days, DEFAULT_USAGE_DAYS)
    .option('--hourly', 'one line per hour with traffic, instead of one per day')
    .option('--json', 'print the figures as JSON, every hour included')
    .action(async (id: string, options: { days: number; hourly?: boolean; json?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const key = await store.getKey(id);
        if (key === null) throw new OperatorError(`No API key has the id ${JSON.stringify(id)}; see loc keys list --account NAME.`);
        const report = await usageReport(store, key, { now: Date.now(), days: options.days });
        if (options.json) printJson(io, { ...report, keptDays: MAX_USAGE_DAYS });
        else printUsage(io, report, options.hourly === true);
      });
    });

  program
    .command('audit')
    .description('show the audit log: every change made in the partner panel or with this CLI, newest first (acts on the database of LOC_DATABASE_URL, else of LOC_DATA_DIR)')
    .option('--account <name>', "only this account's entries")
    .option('--limit <n>', `how many entries (default ${DEFAULT_AUDIT_LIMIT})`, positiveInteger, DEFAULT_AUDIT_LIMIT)
    .option('--before <seq>', 'only entries older than this one (the next page: the last SEQ shown)', positiveInteger)
    .option('--json', 'print the entries as JSON')
    .action(async (options: { account?: string; limit: number; before?: number; json?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const account = options.account === undefined ? null : await requireAccount(store, options.account);
        const entries = await store.audit.listAudit({ accountId: account?.id ?? null, before: options.before, limit: options.limit });
        const names = new Map((await store.listAccounts()).map((each) => [each.id, each.name]));
        const shown = entries.map((entry) => ({ ...entry, account: names.get(entry.accountId) ?? entry.accountId }));
        if (options.json) {
          printJson(io, shown);
          return;
        }
        printTable(
          io,
          ['SEQ', 'WHEN (UTC)', 'ACCOUNT', 'WHO', 'WHERE', 'WHAT'],
          shown.map((entry) => [String(entry.seq), isoDate(entry.at), entry.account, printable(entry.actor), printable(where(entry)), printable(describeChange(entry))]),
        );
      });
    });
}
