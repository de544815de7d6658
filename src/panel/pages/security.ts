/**
 * The signed-in user's own security: their password, their passkeys, and every browser signed in as
 * them, with a button that signs all of them out.
 */
import { PASSWORD_MAX, PASSWORD_MIN } from '../passwords.ts';
import type { Passkey, PanelSession } from '../../store/panel-store.ts';
import type { Account } from '../../store/store.ts';
import { PANEL_PATH, type SignedIn } from '../panel-sessions.ts';
import { buttonForm, csrfField, escapeHtml, notice, panelPage, scrollingTable, textInput, time } from './layout.ts';

export const SECURITY_DONE: Readonly<Record<string, string>> = {
  password: 'Your password is changed; other browsers signed in as you are signed out.',
  signed_out: 'Every other browser signed in as you is signed out.',
  passkey_added: 'The passkey is added: you can sign in with it.',
  passkey_removed: 'The passkey is removed.',
};

export function securityPage(options: { signedIn: SignedIn; account: Account | null; sessions: PanelSession[]; passkeys: Passkey[]; done?: string; passwordError?: string | null }): string {
  const { signedIn } = options;
  const done = options.done === undefined ? undefined : SECURITY_DONE[options.done];
  const sessions = options.sessions.map((session) => `<tr><td>${escapeHtml(session.userAgent || 'unknown browser')}${session.hash === signedIn.session.hash ? ' <strong>(this browser)</strong>' : ''}</td>
<td>${escapeHtml(session.ip)}</td><td>${time(session.createdAt)}</td></tr>`).join('\n');
  const passkeys = options.passkeys.map((passkey) => `<tr><td>${escapeHtml(passkey.name)}</td><td>${time(passkey.createdAt)}</td><td>${time(passkey.lastUsedAt)}</td>
<td>${buttonForm(signedIn, `${PANEL_PATH}/security/passkeys/remove`, `Remove<span class="visually-hidden"> ${escapeHtml(passkey.name)}</span>`, { passkey: passkey.id }, 'danger')}</td></tr>`).join('\n');
  return panelPage({
    title: 'Sign-in and security',
    signedIn,
    account: options.account,
    current: 'security',
    body: `${done ? notice('success', done) : ''}
<h2 id="passkeys">Passkeys</h2>
<p>A passkey signs you in with your device’s screen lock or a security key: nothing to type, nothing to phish.</p>
${passkeys === '' ? '<p class="muted">No passkey yet.</p>' : scrollingTable('Passkeys', `<table><thead><tr><th scope="col">Passkey</th><th scope="col">Added</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${passkeys}</tbody></table>`)}
<div class="actions passkey" hidden><button type="button" class="primary" data-passkey="add">Add a passkey</button></div>
<p class="muted passkey-unsupported">Adding a passkey needs a browser with JavaScript and passkey support.</p>
<h2 id="password">Password</h2>
<form method="post" action="${PANEL_PATH}/security/password" novalidate>
${csrfField(signedIn)}
<input type="text" name="email" value="${escapeHtml(signedIn.user.email)}" autocomplete="username" hidden>
${textInput({ name: 'password', label: signedIn.user.passwordHash === null ? 'Set a password' : 'New password', type: 'password', autocomplete: 'new-password', hint: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters, not a common password.`, error: options.passwordError ?? null })}
<div class="actions"><button type="submit">Save password</button></div>
</form>
<h2 id="sessions">Where you are signed in</h2>
${scrollingTable('Browsers signed in', `<table><thead><tr><th scope="col">Browser</th><th scope="col">Address</th><th scope="col">Signed in</th></tr></thead><tbody>${sessions}</tbody></table>`)}
<form method="post" action="${PANEL_PATH}/security/sign-out-everywhere">${csrfField(signedIn)}<div class="actions"><button type="submit" class="danger">Sign out everywhere else</button></div></form>
${options.passwordError ? notice('error', escapeHtml(options.passwordError)) : ''}`,
  });
}
