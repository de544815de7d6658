/**
 * The panel's page shell and the pieces every page is made of: the header with the account's
 * navigation and the sign-out button, messages, and forms that carry the CSRF token. Pages are whole
 * documents rendered on the server: every task works without script; the page script (panel/assets)
 * adds passkeys, copy buttons and live updates where the browser runs it.
 */
import { escapeHtml } from '../../escape-html.ts';
import { printable } from '../../printable.ts';
import type { Config } from '../../server/config.ts';
import type { Account } from '../../store/store.ts';
import { CSRF_FIELD, PANEL_PATH, type SignedIn } from '../panel-sessions.ts';

export { escapeHtml };

/** Where the page script and the stylesheet are served (panel/assets.ts). */
export const ASSETS_PATH = `${PANEL_PATH}/assets`;

export interface PanelPageOptions {
  title: string;
  body: string;
  /** The signed-in user: the header shows the navigation and the sign-out button. */
  signedIn?: SignedIn | null;
  /** The account the page is about, for the navigation (an operator may look at any). */
  account?: Account | null;
  /** Which navigation entry is the current page. */
  current?: 'keys' | 'team' | 'audit' | 'security' | 'accounts';
  /** For a page with live parts: how often the page script fetches them again (`data-refresh-ms`). */
  refreshMs?: number;
}

/** The configured intervals that the live parts of a page depend on, and that its text quotes. */
export type LiveIntervals = Pick<Config, 'usageFlushMs' | 'panelRefreshMs'>;

/** The path of a page of `account` (`/panel/accounts/<id>/keys`, …). */
export const accountPath = (accountId: string, rest = ''): string => `${PANEL_PATH}/accounts/${encodeURIComponent(accountId)}${rest}`;

function navigation(signedIn: SignedIn, account: Account | null | undefined, current: PanelPageOptions['current']): string {
  const link = (href: string, text: string, name: PanelPageOptions['current']) =>
    `<li><a href="${escapeHtml(href)}"${current === name ? ' aria-current="page"' : ''}>${text}</a></li>`;
  const home = account ?? null;
  return `<nav aria-label="Panel"><ul>
${home === null ? '' : link(accountPath(home.id, '/keys'), 'API keys', 'keys') + link(accountPath(home.id, '/team'), 'Team', 'team') + link(accountPath(home.id, '/audit'), 'Audit log', 'audit')}
${link(`${PANEL_PATH}/security`, 'Sign-in and security', 'security')}
${signedIn.user.operator ? link(`${PANEL_PATH}/accounts`, 'All accounts', 'accounts') : ''}
</ul>
<form method="post" action="${PANEL_PATH}/sign-out" class="inline">${csrfField(signedIn)}<button type="submit">Sign out</button></form>
</nav>`;
}

export function panelPage(options: PanelPageOptions): string {
  const signedIn = options.signedIn ?? null;
  const who = signedIn === null ? '' : `<p class="who">${escapeHtml(printable(signedIn.user.email))}${options.account ? ` · <span>${escapeHtml(options.account.name)}</span>` : ''}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · loc partner panel</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${ASSETS_PATH}/panel.css">
<script type="module" src="${ASSETS_PATH}/panel.js"></script>
</head>
<body${options.refreshMs === undefined ? '' : ` data-refresh-ms="${options.refreshMs}"`}>
<a class="skip" href="#main">Skip to content</a>
<header>
<p class="brand"><a href="${PANEL_PATH}">loc partner panel</a></p>
${who}
${signedIn === null ? '' : navigation(signedIn, options.account, options.current)}
</header>
<main id="main" tabindex="-1">
<h1>${escapeHtml(options.title)}</h1>
${options.body}
</main>
</body>
</html>
`;
}

/** The hidden CSRF field of a form. */
export const csrfField = (signedIn: SignedIn): string => `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(signedIn.csrf)}">`;

/** A message at the top of a page: an error is announced to screen readers as soon as the page loads. */
export function notice(kind: 'error' | 'success' | 'info', text: string): string {
  return `<div class="notice ${kind}"${kind === 'error' ? ' role="alert"' : ' role="status"'}>${text}</div>`;
}

/** A POST form of one button (disable, remove, …), with its CSRF field and `hidden` values. */
export function buttonForm(signedIn: SignedIn, action: string, label: string, hidden: Record<string, string> = {}, style: 'plain' | 'danger' = 'plain'): string {
  const fields = Object.entries(hidden).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
  return `<form method="post" action="${escapeHtml(action)}" class="inline">${csrfField(signedIn)}${fields}<button type="submit"${style === 'danger' ? ' class="danger"' : ''}>${label}</button></form>`;
}

/** A labelled text input, with its error (described by it) when the last submission was refused there. */
export function textInput(options: { name: string; label: string; value?: string; type?: string; hint?: string; error?: string | null; required?: boolean; autocomplete?: string; inputmode?: string }): string {
  const id = `field-${options.name}`;
  const described = [options.hint ? `${id}-hint` : '', options.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return `<div class="field${options.error ? ' invalid' : ''}">
<label for="${id}">${options.label}</label>
${options.hint ? `<p class="hint" id="${id}-hint">${options.hint}</p>` : ''}
${options.error ? `<p class="error" id="${id}-error">${escapeHtml(options.error)}</p>` : ''}
<input id="${id}" name="${options.name}" type="${options.type ?? 'text'}"${options.value === undefined ? '' : ` value="${escapeHtml(options.value)}"`}${options.required ? ' required' : ''}${options.autocomplete ? ` autocomplete="${options.autocomplete}"` : ''}${options.inputmode ? ` inputmode="${options.inputmode}"` : ''}${described ? ` aria-describedby="${described}"` : ''}${options.error ? ' aria-invalid="true"' : ''}>
</div>`;
}

/**
 * A table that scrolls sideways inside its box on a narrow screen, not the page: a region named
 * `label` that the keyboard can reach and scroll.
 */
export const scrollingTable = (label: string, table: string): string =>
  `<div class="table-scroll" role="region" aria-label="${escapeHtml(label)}" tabindex="0">${table}</div>`;

/** A duration for people, in seconds to the tenth: `3 seconds`, `0.5 seconds`, `1 second`. */
export function seconds(ms: number): string {
  const value = Math.round(ms / 100) / 10;
  return `${value} second${value === 1 ? '' : 's'}`;
}

/** A time for people: UTC, to the minute, with the machine-readable value for script and tests. */
export function time(at: number | null, never = 'never'): string {
  if (at === null) return never;
  const iso = new Date(at).toISOString();
  return `<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}
