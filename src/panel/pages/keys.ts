/**
 * The pages of an account's keys as a list: live and test keys apart, with when each was last used;
 * the form of a new key; and the one page that ever shows a key's secret, right after it is made.
 */
import { KEY_LABEL_MAX } from '../../auth/keys.ts';
import { printable } from '../../printable.ts';
import type { KeyUse, Rotation } from '../../store/panel-store.ts';
import type { Account, ApiKey } from '../../store/store.ts';
import type { LimitDefaults } from '../../operations/change-context.ts';
import { REFUSAL_REASONS, type UsageHour } from '../../store/usage-store.ts';
import type { SignedIn } from '../panel-sessions.ts';
import { accountPath, csrfField, escapeHtml, notice, panelPage, scrollingTable, textInput, time } from './layout.ts';

/** Where a key was last used from, in a few words. */
export function lastUse(use: KeyUse | undefined): string {
  if (use === undefined) return 'never';
  // Printable: a row from before client addresses were checked may hold anything.
  return `${time(use.at)}, ${use.origin === null ? `from ${escapeHtml(printable(use.ip))}` : `on ${escapeHtml(printable(use.origin))}`}`;
}

/** A key's requests over the hours given: counted (both kinds) and refused (every reason). */
export interface RecentUsage {
  used: number;
  refused: number;
}

/** `totals` with `hour`'s requests added: those used, and those refused for any reason. */
export function addedUp(totals: RecentUsage, hour: UsageHour): RecentUsage {
  return { used: totals.used + hour.used, refused: REFUSAL_REASONS.reduce((refused, reason) => refused + hour.refused[reason], totals.refused) };
}

const recentText = (recent: RecentUsage | undefined): string =>
  recent === undefined ? '' : `${recent.used.toLocaleString('en')}${recent.refused > 0 ? `<br><span class="muted">${recent.refused.toLocaleString('en')} refused</span>` : ''}`;

const keyName = (key: ApiKey): string => (key.label === null ? `<span class="muted">no label</span>` : escapeHtml(key.label));
export const statusText = (key: ApiKey): string => `<span class="status-${key.status}">${key.status === 'active' ? 'Active' : 'Disabled'}</span>`;

function keyTable(account: Account, keys: ApiKey[], uses: Map<string, KeyUse>, recent: Map<string, RecentUsage>, rotating: Set<string>, caption: string): string {
  if (keys.length === 0) return `<p class="muted">No ${caption.toLowerCase()} yet.</p>`;
  const rows = keys.map((key) => `<tr>
<td><a href="${accountPath(account.id, `/keys/${encodeURIComponent(key.id)}`)}">${keyName(key)}</a><br><code>${escapeHtml(key.id)}</code></td>
<td>${statusText(key)}${rotating.has(key.id) ? '<br><span class="muted">being replaced</span>' : ''}</td>
<td>${key.origins.map((origin) => `<code>${escapeHtml(origin)}</code>`).join('<br>') || '<span class="muted">none</span>'}</td>
<td>${lastUse(uses.get(key.id))}</td>
<td data-usage-24h>${recentText(recent.get(key.id))}</td>
</tr>`).join('\n');
  return scrollingTable(caption, `<table>
<caption class="muted">${caption}</caption>
<thead><tr><th scope="col">Key</th><th scope="col">Status</th><th scope="col">Allowed origins</th><th scope="col">Last used</th><th scope="col">Requests, last 24 h</th></tr></thead>
<tbody>
${rows}
</tbody></table>`);
}

/** Messages of the redirects that end a change; fixed texts, so nothing of the request is reflected. */
export const DONE_MESSAGES: Readonly<Record<string, string>> = {
  disabled: 'The key is disabled: the API refuses it from now on (within a second on every server).',
  enabled: 'The key is active again.',
  rotated: 'The rotation is done: the old key is disabled.',
  origin_added: 'The origin is added.',
  origin_removed: 'The origin is removed.',
  range_added: 'The IP range is added.',
  range_removed: 'The IP range is removed.',
  origin_not_there: 'That origin was not on the key; nothing changed.',
  range_not_there: 'That IP range was not on the key; nothing changed.',
  origin_already_there: 'That origin was already on the key; nothing changed.',
  range_already_there: 'That IP range was already on the key; nothing changed.',
};

/** The notice of a change's redirect: a change made, or one that had nothing to change (`_not_there`, `_already_there`). */
export function doneNotice(done: string | undefined): string {
  const text = done === undefined ? undefined : DONE_MESSAGES[done];
  if (text === undefined) return '';
  return notice(/_(not|already)_there$/.test(done!) ? 'info' : 'success', text);
}

export function keysPage(options: { signedIn: SignedIn; account: Account; keys: ApiKey[]; uses: KeyUse[]; rotations: Rotation[]; recent: Map<string, RecentUsage>; done?: string }): string {
  const uses = new Map(options.uses.map((use) => [use.keyId, use]));
  const rotating = new Set(options.rotations.filter((r) => r.finishedAt === null).map((r) => r.oldKeyId));
  const live = options.keys.filter((key) => key.mode === 'live');
  const test = options.keys.filter((key) => key.mode === 'test');
  return panelPage({
    title: 'API keys',
    signedIn: options.signedIn,
    account: options.account,
    current: 'keys',
    body: `${doneNotice(options.done)}
${options.account.partner ? '' : notice('info', 'This account is not a partner: its keys can call the API, but cannot create embed sessions.')}
<div class="actions"><a class="button primary" href="${accountPath(options.account.id, '/keys/new')}">Create a key</a></div>
<h2 id="live">Live keys</h2>
${keyTable(options.account, live, uses, options.recent, rotating, 'Live keys')}
<h2 id="test">Test keys</h2>
<p class="muted">Test keys (<code>loc_test_…</code>) answer like live ones, but what they save is kept apart from live data; use them in CI and staging.</p>
${keyTable(options.account, test, uses, options.recent, rotating, 'Test keys')}`,
  });
}

export interface NewKeyValues {
  label: string;
  mode: 'live' | 'test';
  origins: string;
  ipRanges: string;
  hourlyLimit: string;
}

export const EMPTY_KEY: NewKeyValues = { label: '', mode: 'live', origins: '', ipRanges: '', hourlyLimit: '' };

export function newKeyPage(options: {
  signedIn: SignedIn; account: Account; ceiling: LimitDefaults; values?: NewKeyValues; error?: { field: string | undefined; message: string } | null;
}): string {
  const values = options.values ?? EMPTY_KEY;
  const errorOf = (field: string) => (options.error?.field === field ? options.error.message : null);
  const textarea = (name: string, label: string, value: string, hint: string, field: string) => {
    const error = errorOf(field);
    return `<div class="field${error ? ' invalid' : ''}"><label for="field-${name}">${label}</label>
<p class="hint" id="field-${name}-hint">${hint}</p>${error ? `<p class="error" id="field-${name}-error">${escapeHtml(error)}</p>` : ''}
<textarea id="field-${name}" name="${name}" aria-describedby="field-${name}-hint${error ? ` field-${name}-error` : ''}"${error ? ' aria-invalid="true"' : ''}>${escapeHtml(value)}</textarea></div>`;
  };
  return panelPage({
    title: 'Create an API key',
    signedIn: options.signedIn,
    account: options.account,
    current: 'keys',
    body: `${options.error ? notice('error', `The key was not created: ${escapeHtml(options.error.message)}`) : ''}
<form method="post" action="${accountPath(options.account.id, '/keys')}" novalidate>
${csrfField(options.signedIn)}
${textInput({ name: 'label', label: 'Label', value: values.label, hint: `What the key is for, e.g. "checkout, production". At most ${KEY_LABEL_MAX} characters.`, error: errorOf('label') })}
<fieldset class="field"><legend>Kind</legend>
<label><input type="radio" name="mode" value="live"${values.mode === 'live' ? ' checked' : ''}> Live key</label>
<label><input type="radio" name="mode" value="test"${values.mode === 'test' ? ' checked' : ''}> Test key (<code>loc_test_…</code>)</label>
</fieldset>
${textarea('origins', 'Allowed origins', values.origins, 'One per line, such as https://shop.example. Pages of these origins may show the map picker; https only, except http://localhost:PORT.', 'origins')}
${textarea('ip_ranges', 'Allowed IP ranges', values.ipRanges, 'One CIDR range per line, such as 203.0.113.0/24; empty: any address.', 'ip_ranges')}
${textInput({ name: 'hourly_limit', label: 'Hourly limit', value: values.hourlyLimit, inputmode: 'numeric', hint: `Calls per hour made with the key itself, at most ${options.ceiling.hourlyLimit.toLocaleString('en')} for this account (an operator raises it); empty: the service default, or this ceiling when it is lower.`, error: errorOf('hourly_limit') })}
<div class="actions"><button type="submit" class="primary">Create key</button> <a class="button" href="${accountPath(options.account.id, '/keys')}">Cancel</a></div>
</form>`,
  });
}

/**
 * The key's secret, this once: it is stored only as a hash, so no later page can show it. The page is
 * the answer to the POST that made the key, never cached, and has no address to come back to.
 */
export function keyCreatedPage(options: { signedIn: SignedIn; account: Account; key: ApiKey; secret: string; replacing?: ApiKey }): string {
  const { account, key } = options;
  const next = options.replacing === undefined
    ? `<a class="button primary" href="${accountPath(account.id, `/keys/${encodeURIComponent(key.id)}`)}">I have stored it: go to the key</a>`
    : `<a class="button primary" href="${accountPath(account.id, `/keys/${encodeURIComponent(options.replacing.id)}/rotation`)}">I have stored it: continue the rotation</a>`;
  return panelPage({
    title: options.replacing ? 'Replacement key created' : 'Key created',
    signedIn: options.signedIn,
    account,
    current: 'keys',
    body: `${notice('info', '<strong>Copy the key now.</strong> This is the only time it is shown: loc keeps only a hash of it. If it is lost, create a new key.')}
<div class="secret-box">
<label for="secret" class="muted">API key ${escapeHtml(key.id)}${key.label ? ` (${escapeHtml(key.label)})` : ''}</label>
<input id="secret" readonly value="${escapeHtml(options.secret)}" aria-describedby="secret-hint" spellcheck="false" autocomplete="off">
<button type="button" data-copy="secret" hidden>Copy</button>
</div>
<p id="secret-hint" class="muted">Keep it on your server (an environment variable or a secret store), never in a web page or a repository.</p>
<div class="actions">${next}</div>`,
  });
}
