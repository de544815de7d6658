/** The operators' page: every account, its partner status, and the way to its keys and team. */
import type { Account } from '../../store/store.ts';
import { PANEL_PATH, type SignedIn } from '../panel-sessions.ts';
import { accountPath, buttonForm, escapeHtml, notice, panelPage, scrollingTable, time } from './layout.ts';

export function accountsPage(options: { signedIn: SignedIn; accounts: Account[]; done?: string }): string {
  const { signedIn } = options;
  const rows = options.accounts.map((account) => `<tr><td><a href="${accountPath(account.id, '/keys')}">${escapeHtml(account.name)}</a><br><code>${escapeHtml(account.id)}</code></td>
<td>${account.partner ? 'Partner' : 'Not a partner'}</td><td>${time(account.createdAt)}</td>
<td>${buttonForm(signedIn, `${PANEL_PATH}/accounts/partner`, account.partner ? `Remove partner status<span class="visually-hidden"> of ${escapeHtml(account.name)}</span>` : `Make partner<span class="visually-hidden">: ${escapeHtml(account.name)}</span>`, { account: account.id, partner: account.partner ? 'off' : 'on' }, account.partner ? 'danger' : 'plain')}</td></tr>`).join('\n');
  return panelPage({
    title: 'All accounts',
    signedIn,
    current: 'accounts',
    body: `${options.done === 'partner' ? notice('success', 'Partner status changed.') : ''}
<p>As an operator you see every account. Partners may create embed sessions; taking the status away ends their open sessions.</p>
${scrollingTable('Accounts', `<table><thead><tr><th scope="col">Account</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table>`)}
<p><a href="${PANEL_PATH}/audit">Audit log of every account</a></p>
<p class="muted">Accounts are created, and their first user invited, with the operator CLI: <code>loc accounts create</code>, <code>loc accounts invite</code>.</p>`,
  });
}
