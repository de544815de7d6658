/**
 * The pages of signing in: the sign-in form, the page a one-time link opens (choose a password, or a
 * passkey), and re-authentication before a change. Passkey buttons are rendered hidden; the page
 * script shows them where the browser can use passkeys.
 */
import { printable } from '../../printable.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../passwords.ts';
import { PANEL_PATH, type SignedIn } from '../panel-sessions.ts';
import type { LinkPurpose, User } from '../../store/panel-store.ts';
import { csrfField, escapeHtml, notice, panelPage, textInput } from './layout.ts';

const passkeyButton = (purpose: string, label: string): string =>
  `<div class="actions passkey" hidden><button type="button" class="primary" data-passkey="${purpose}">${label}</button></div>`;

export function signInPage(options: { email?: string; error?: string | null; next?: string; signedOut?: boolean }): string {
  return panelPage({
    title: 'Sign in',
    body: `${options.signedOut ? notice('success', 'You are signed out.') : ''}
${options.error ? notice('error', escapeHtml(options.error)) : ''}
${passkeyButton('sign-in', 'Sign in with a passkey')}
<form method="post" action="${PANEL_PATH}/sign-in" novalidate>
${options.next ? `<input type="hidden" name="next" value="${escapeHtml(options.next)}">` : ''}
${textInput({ name: 'email', label: 'E-mail address', type: 'email', value: options.email ?? '', required: true, autocomplete: 'username webauthn' })}
${textInput({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
<p class="muted">No account yet, or lost your password or passkey? Ask your account's administrator or the service's operator for a link.</p>`,
  });
}

/** What a one-time link opens: the user chooses a password (or a passkey) and is signed in. */
export function linkPage(options: { token: string; user: User; accountName: string; purpose: LinkPurpose; error?: string | null }): string {
  const joining = options.purpose === 'invite';
  return panelPage({
    title: joining ? 'Join your team on loc' : 'Choose a new password',
    body: `<p>${joining ? `You are invited to manage the API keys of <strong>${escapeHtml(options.accountName)}</strong> as` : 'Signing in as'} <strong>${escapeHtml(printable(options.user.email))}</strong>.
${joining ? '' : ' Once you have chosen, every browser signed in as you is signed out.'}</p>
${options.error ? notice('error', escapeHtml(options.error)) : ''}
${passkeyButton('link', joining ? 'Create a passkey (recommended)' : 'Create a new passkey')}
<form method="post" action="${PANEL_PATH}/link" novalidate>
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<input type="text" name="email" value="${escapeHtml(options.user.email)}" autocomplete="username" hidden>
${textInput({ name: 'password', label: 'New password', type: 'password', required: true, autocomplete: 'new-password', hint: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters, not a common password. A few unrelated words make a strong one.`, error: options.error ?? null })}
<div class="actions"><button type="submit" class="primary">${joining ? 'Set password and join' : 'Set new password'}</button></div>
</form>`,
  });
}

export function reauthenticatePage(signedIn: SignedIn, options: { next: string; error?: string | null }): string {
  return panelPage({
    title: 'Confirm it is you',
    signedIn,
    body: `<p>Changes to keys, users and accounts need a recent sign-in. Confirm with your password${signedIn.user.passwordHash === null ? '' : ' or a passkey'}, and you are taken back.</p>
${options.error ? notice('error', escapeHtml(options.error)) : ''}
${passkeyButton('reauthenticate', 'Confirm with a passkey')}
${signedIn.user.passwordHash === null ? '' : `<form method="post" action="${PANEL_PATH}/reauthenticate" novalidate>
${csrfField(signedIn)}
<input type="hidden" name="next" value="${escapeHtml(options.next)}">
<input type="text" name="email" value="${escapeHtml(signedIn.user.email)}" autocomplete="username" hidden>
${textInput({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password', error: options.error ?? null })}
<div class="actions"><button type="submit" class="primary">Confirm</button></div>
</form>`}`,
  });
}
