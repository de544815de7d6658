/**
 * The audit log as the panel shows it (store/audit-store.ts, audit/audit-log.ts): every change made to
 * an account in the panel or with the CLI, newest first, a page at a time. An account's users see
 * their account's log; operators see any account's, and every account's at once. Nothing here changes
 * an entry: the log is append-only.
 */
import { describeChange } from '../../audit/audit-log.ts';
import { printable } from '../../printable.ts';
import type { AuditEntry } from '../../store/audit-store.ts';
import type { Account } from '../../store/store.ts';
import { PANEL_PATH, type SignedIn } from '../panel-sessions.ts';
import { accountPath, escapeHtml, panelPage, scrollingTable, time } from './layout.ts';

/** Entries on one page of the log. */
export const AUDIT_PAGE_SIZE = 50;

/** Where a change was made from, in a few words: the panel and the user's address, or the CLI and its machine. */
const where = (entry: AuditEntry): string => (entry.via === 'panel' ? `Panel, from ${escapeHtml(entry.source)}` : `CLI, on ${escapeHtml(entry.source)}`);

function auditTable(entries: AuditEntry[], accountNames: Map<string, string> | null): string {
  const accountCell = (entry: AuditEntry) => {
    if (accountNames === null) return '';
    const name = accountNames.get(entry.accountId);
    return `<td><a href="${accountPath(entry.accountId, '/audit')}">${name === undefined ? `<code>${escapeHtml(entry.accountId)}</code>` : escapeHtml(name)}</a></td>`;
  };
  const rows = entries.map((entry) => `<tr data-audit-seq="${entry.seq}" data-action="${escapeHtml(entry.action)}">
<td>${time(entry.at)}</td>${accountCell(entry)}<td data-audit-actor>${escapeHtml(printable(entry.actor))}</td><td data-audit-where>${where(entry)}</td><td data-audit-what>${escapeHtml(describeChange({ ...entry, target: entry.target === null ? null : printable(entry.target) }))}</td></tr>`);
  return scrollingTable('Audit log', `<table><caption class="muted">Changes, newest first (times in UTC)</caption>
<thead><tr><th scope="col">When</th>${accountNames === null ? '' : '<th scope="col">Account</th>'}<th scope="col">Who</th><th scope="col">Where</th><th scope="col">What</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`);
}

export interface AuditPageOptions {
  signedIn: SignedIn;
  /** The account whose log it is; null: every account's (operators). */
  account: Account | null;
  /** The page's entries, newest first, at most AUDIT_PAGE_SIZE. */
  entries: AuditEntry[];
  /** The seq to continue from for older entries, when there are more. */
  olderThan: number | null;
  /** Whether this is a later page (`?before=`): a link back to the newest. */
  paged: boolean;
  /** Every account's name by id, for the operators' view. */
  accountNames?: Map<string, string>;
}

export function auditPage(options: AuditPageOptions): string {
  const { signedIn, account } = options;
  const path = account === null ? `${PANEL_PATH}/audit` : accountPath(account.id, '/audit');
  const everyAccount = signedIn.user.operator
    ? `<p><a href="${account === null ? `${PANEL_PATH}/accounts` : `${PANEL_PATH}/audit`}">${account === null ? 'All accounts' : 'Every account’s log'}</a></p>`
    : '';
  const links = [
    options.paged ? `<a href="${path}">Newest entries</a>` : '',
    options.olderThan === null ? '' : `<a href="${path}?before=${options.olderThan}" rel="next">Older entries</a>`,
  ].filter((link) => link !== '');
  return panelPage({
    title: account === null ? 'Audit log of every account' : 'Audit log',
    signedIn,
    account,
    current: account === null ? 'accounts' : 'audit',
    body: `<p>Every change made to ${account === null ? 'any account' : 'this account'} — keys, team, partner status — in the panel or with the operator CLI: who made it, from where, and when. Entries are only ever added; none can be changed or removed.</p>
${everyAccount}
${options.entries.length === 0 ? `<p class="muted">${options.paged ? 'No older entries.' : 'No change has been recorded yet.'}</p>` : auditTable(options.entries, account === null ? (options.accountNames ?? new Map()) : null)}
${links.length === 0 ? '' : `<p class="actions">${links.join(' ')}</p>`}`,
  });
}
