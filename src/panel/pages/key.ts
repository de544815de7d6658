/**
 * The page of one key — its origins and IP ranges to edit, disable or enable it, start a rotation —
 * and the rotation's own page: the contract's procedure for a key to replace (create the replacement,
 * deploy it, verify its traffic, disable the old key) as three steps, with each key's last use.
 */
import type { KeyUse, Rotation } from '../../store/panel-store.ts';
import type { UsageReport } from '../../limits/usage-report.ts';
import type { Account, ApiKey } from '../../store/store.ts';
import type { SignedIn } from '../panel-sessions.ts';
import { doneNotice, lastUse, statusText } from './keys.ts';
import { usageSection } from './usage.ts';
import { accountPath, buttonForm, csrfField, escapeHtml, notice, panelPage, seconds, textInput, time, type LiveIntervals } from './layout.ts';

const keyPath = (account: Account, key: ApiKey, rest = ''): string => accountPath(account.id, `/keys/${encodeURIComponent(key.id)}${rest}`);

/** A list of the key (origins, IP ranges): each entry with its remove button, and a form to add one. */
function listSection(options: { signedIn: SignedIn; account: Account; key: ApiKey; list: 'origins' | 'ip-ranges'; values: string[]; error: string | null; input: string }): string {
  const { signedIn, account, key, list } = options;
  const origins = list === 'origins';
  const field = origins ? 'origin' : 'ip_range';
  const items = options.values.map((value) => `<li><code>${escapeHtml(value)}</code> ${buttonForm(signedIn, keyPath(account, key, `/${list}/remove`), `Remove<span class="visually-hidden"> ${escapeHtml(value)}</span>`, { [field]: value }, 'danger')}</li>`);
  return `<h2 id="${list}">${origins ? 'Allowed origins' : 'Allowed IP ranges'}</h2>
<p class="muted">${origins ? 'Pages of these origins may show the map picker with this key’s sessions; a request that carries another Origin is refused.' : 'Calls made with the key must come from these ranges; with none, from anywhere.'}</p>
${items.length === 0 ? `<p class="muted">${origins ? 'No origin: the key cannot be used for embed sessions.' : 'No range: any address may use the key.'}</p>` : `<ul class="values">${items.join('\n')}</ul>`}
<form method="post" action="${keyPath(account, key, `/${list}`)}" novalidate>
${csrfField(signedIn)}
${textInput({ name: field, label: origins ? 'Add an origin' : 'Add an IP range', value: options.input, hint: origins ? 'Such as https://shop.example' : 'CIDR, such as 203.0.113.0/24 or 2001:db8::/32', error: options.error })}
<div class="actions"><button type="submit">Add</button></div>
</form>`;
}

export interface KeyPageOptions {
  signedIn: SignedIn;
  account: Account;
  key: ApiKey;
  use: KeyUse | undefined;
  /** The rotation under way that replaces this key, if any. */
  rotation: Rotation | undefined;
  /** The key's usage over the `days` chosen (pages/usage.ts). */
  usage: { report: UsageReport; days: number };
  /** How often the live figures change and the page fetches them (the service's settings). */
  intervals: LiveIntervals;
  done?: string;
  /** A refused addition: the list, the value given and why. */
  refused?: { list: 'origins' | 'ip-ranges'; input: string; message: string };
}

export function keyPage(options: KeyPageOptions): string {
  const { signedIn, account, key } = options;
  const refusedIn = (list: 'origins' | 'ip-ranges') => (options.refused?.list === list ? options.refused : undefined);
  const status = key.status === 'active'
    ? `<p>Disabling the key makes the API refuse it at once, and ends its embed sessions. It can be enabled again.</p>${buttonForm(signedIn, keyPath(account, key, '/disable'), 'Disable key', {}, 'danger')}`
    : `<p>The API refuses this key. Enabling it lets it work again, with its origins and ranges as they are.</p>${buttonForm(signedIn, keyPath(account, key, '/enable'), 'Enable key')}`;
  const rotation = options.rotation === undefined
    ? (key.status === 'active' ? `<p>Replace the key without downtime: a new key with the same origins, ranges and limits, then you deploy it, see it used, and disable this one.</p>${buttonForm(signedIn, keyPath(account, key, '/rotate'), 'Start a rotation')}` : '')
    : `<p>A rotation is under way since ${time(options.rotation.startedAt)}. <a href="${keyPath(account, key, '/rotation')}">Continue the rotation</a></p>`;
  return panelPage({
    title: key.label === null ? `Key ${key.id}` : `Key “${key.label}”`,
    signedIn,
    account,
    current: 'keys',
    refreshMs: options.intervals.panelRefreshMs,
    body: `${doneNotice(options.done)}
${options.refused ? notice('error', escapeHtml(options.refused.message)) : ''}
<dl class="facts">
<dt>Id</dt><dd><code>${escapeHtml(key.id)}</code></dd>
<dt>Kind</dt><dd>${key.mode === 'test' ? 'Test key (<code>loc_test_…</code>)' : 'Live key'}</dd>
<dt>Status</dt><dd>${statusText(key)}</dd>
<dt>Created</dt><dd>${time(key.createdAt)}</dd>
<dt>Last used</dt><dd id="key-last-use" data-live>${lastUse(options.use)}</dd>
<dt>Hourly limit</dt><dd>${key.hourlyLimit ?? 'the service default'}</dd>
</dl>
${listSection({ signedIn, account, key, list: 'origins', values: key.origins, error: refusedIn('origins')?.message ?? null, input: refusedIn('origins')?.input ?? '' })}
${listSection({ signedIn, account, key, list: 'ip-ranges', values: key.ipRanges, error: refusedIn('ip-ranges')?.message ?? null, input: refusedIn('ip-ranges')?.input ?? '' })}
${usageSection({ path: keyPath(account, key), ...options.usage, intervals: options.intervals })}
<h2 id="rotation">Rotation</h2>
${rotation}
<h2 id="status">Status</h2>
${status}
<p><a href="${accountPath(account.id, '/keys')}">All keys</a></p>`,
  });
}

export function rotationPage(options: { signedIn: SignedIn; account: Account; oldKey: ApiKey; newKey: ApiKey; rotation: Rotation; uses: Map<string, KeyUse>; intervals: LiveIntervals }): string {
  const { signedIn, account, oldKey, newKey, rotation } = options;
  const newUse = options.uses.get(newKey.id);
  const arrived = newUse !== undefined && newUse.at >= rotation.startedAt;
  const finished = rotation.finishedAt !== null;
  const verify = arrived
    ? notice('success', `The new key is in use: last request ${lastUse(newUse)}.`)
    : `<p class="muted">No request with the new key yet. Deploy it where the old key is used; this page updates by itself every ${seconds(options.intervals.panelRefreshMs)} (or reload it).</p>`;
  const finish = finished
    ? notice('success', `Done: the old key was disabled ${time(rotation.finishedAt)}.`)
    : `<p>The old key was last used ${lastUse(options.uses.get(oldKey.id))}. ${arrived ? 'Once your traffic has moved to the new key, disable the old one.' : 'Disabling it before the new key is in use would stop your integration.'}</p>
<form method="post" action="${accountPath(account.id, `/keys/${encodeURIComponent(oldKey.id)}/rotation/finish`)}">
${csrfField(signedIn)}
${arrived ? '' : '<div class="field"><label><input type="checkbox" name="confirm" value="yes" required> Disable it anyway, although the new key has not been used yet</label></div>'}
<div class="actions"><button type="submit" class="danger">Disable the old key</button></div>
</form>`;
  return panelPage({
    title: 'Rotate a key',
    signedIn,
    account,
    current: 'keys',
    refreshMs: options.intervals.panelRefreshMs,
    // Steps 2 and 3 change together when the first request arrives (the confirmation box goes): the
    // whole list is the live region the page script refreshes.
    body: `<ol class="steps" id="rotation-steps" aria-live="polite" data-live>
<li><strong>Replacement created</strong> ${time(rotation.startedAt)}: <code>${escapeHtml(newKey.id)}</code>${newKey.label ? ` (${escapeHtml(newKey.label)})` : ''}, with the old key’s origins, ranges and limits.</li>
<li><strong>Deploy it and see it used.</strong>
<div id="rotation-traffic">${verify}</div></li>
<li><strong>Disable the old key</strong> <code>${escapeHtml(oldKey.id)}</code>.
${finish}</li>
</ol>
<p><a href="${accountPath(account.id, '/keys')}">All keys</a></p>`,
  });
}
