/**
 * The account's team: who can sign in to manage its keys, a button to remove each of the others, and
 * the form that invites someone else. Addresses show in their printable form: one stored before
 * addresses were checked, or typed with a hidden character and refused, shows that character as an escape. An invitation's link is shown once, to be handed over; there is
 * no mail server.
 */
import { printable } from '../../printable.ts';
import type { User } from '../../store/panel-store.ts';
import type { Account } from '../../store/store.ts';
import type { SignedIn } from '../panel-sessions.ts';
import { accountPath, buttonForm, csrfField, escapeHtml, notice, panelPage, scrollingTable, textInput, time } from './layout.ts';

export function teamPage(options: { signedIn: SignedIn; account: Account; users: User[]; removed?: boolean; invited?: { email: string; url: string; expiresAt: number }; error?: { email: string; message: string } }): string {
  const { signedIn, account } = options;
  const you = (user: User) => user.id === signedIn.user.id;
  const rows = options.users.map((user) => `<tr><td>${escapeHtml(printable(user.email))}${you(user) ? ' <span class="muted">(you)</span>' : ''}</td>
<td>${user.activatedAt === null ? 'Invited' : 'Active'}${user.operator ? ', operator' : ''}</td><td>${time(user.createdAt)}</td>
<td>${you(user) || (user.operator && !signedIn.user.operator) ? '' : buttonForm(signedIn, accountPath(account.id, '/team/remove'), `Remove<span class="visually-hidden"> ${escapeHtml(printable(user.email))}</span>`, { user: user.id }, 'danger')}</td></tr>`).join('\n');
  const invited = options.invited === undefined ? '' : `${notice('success', `Invitation made for ${escapeHtml(printable(options.invited.email))}. Send them this link; it works once, until ${time(options.invited.expiresAt)}, and is not shown again.`)}
<div class="secret-box"><label for="invite-link" class="muted">Invitation link</label>
<input id="invite-link" readonly value="${escapeHtml(options.invited.url)}" spellcheck="false" autocomplete="off">
<button type="button" data-copy="invite-link" hidden>Copy</button></div>`;
  return panelPage({
    title: 'Team',
    signedIn,
    account,
    current: 'team',
    body: `${options.removed ? notice('success', 'The person is removed: signed out everywhere, and can no longer sign in. The keys stay the account’s.') : ''}
${invited}
${scrollingTable('Team', `<table><caption class="muted">People who manage ${escapeHtml(account.name)}</caption>
<thead><tr><th scope="col">E-mail address</th><th scope="col">Status</th><th scope="col">Added</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table>`)}
<h2>Invite someone</h2>
<p>They get a link to choose a password or a passkey, and can then manage this account’s keys as you do.</p>
<form method="post" action="${accountPath(account.id, '/team')}" novalidate>
${csrfField(signedIn)}
${textInput({ name: 'email', label: 'Their e-mail address', type: 'email', value: printable(options.error?.email ?? ''), error: options.error?.message ?? null, autocomplete: 'off' })}
<div class="actions"><button type="submit" class="primary">Make an invitation link</button></div>
</form>`,
  });
}
