/**
 * An account's API keys in the panel: list, create (the secret shown once), edit origins and IP
 * ranges, disable and enable, and rotation as one guided flow. Every change needs a recent
 * authentication and goes through the same rules as the operator CLI's (auth/keys.ts, the store), so a
 * key made here is the key `loc keys` would make.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkIpRange } from '../../auth/ip-range.ts';
import { checkOrigin } from '../../auth/origin.ts';
import { LocError } from '../../errors.ts';
import { HOUR_MS } from '../../durations.ts';
import { usageReport } from '../../limits/usage-report.ts';
import { ceilingOf } from '../../operations/account-limits.ts';
import { findRotation, finishRotation, rotateKey } from '../../operations/key-rotation.ts';
import { addToKeyList, createKey, removeFromKeyList, setKeyStatus } from '../../operations/keys.ts';
import { changed } from '../../operations/change-context.ts';
import type { Account, ApiKey, KeyList } from '../../store/store.ts';
import { keyPage, rotationPage, type KeyPageOptions } from '../pages/key.ts';
import { EMPTY_KEY, addedUp, keyCreatedPage, keysPage, newKeyPage, type NewKeyValues } from '../pages/keys.ts';
import { accountPath } from '../pages/layout.ts';
import { usageDays } from '../pages/usage.ts';
import { accountOf, formField, panelContext, requireRecentAuth, sendPage, signedIn } from '../access.ts';

type Params = { accountId: string; keyId: string };
const user = { config: { panel: 'user' as const } };

const lines = (text: string): string[] => text.split(/[\r\n]+/).map((line) => line.trim()).filter((line) => line !== '');

/** The two lists of a key as the panel's paths and forms name them. */
const LISTS = {
  origins: { list: 'origins', field: 'origin', added: 'origin_added', removed: 'origin_removed', present: 'origin_already_there', absent: 'origin_not_there' },
  'ip-ranges': { list: 'ipRanges', field: 'ip_range', added: 'range_added', removed: 'range_removed', present: 'range_already_there', absent: 'range_not_there' },
} as const satisfies Record<string, { list: KeyList; field: string; added: string; removed: string; present: string; absent: string }>;

const BASE = '/panel/accounts/:accountId/keys';

/** The signed-in user's account of the path, and its key when the path names one; `not_found` for another account's key. */
async function context(app: FastifyInstance, request: FastifyRequest<{ Params: Partial<Params> }>): Promise<{ account: Account; key: ApiKey | null }> {
  const account = await accountOf(app, signedIn(request).user, request.params.accountId ?? '');
  if (request.params.keyId === undefined) return { account, key: null };
  const key = await app.store.getKey(request.params.keyId);
  // Another account's key answers as an unknown one does.
  if (key === null || key.accountId !== account.id) throw new LocError('not_found', 'This account has no such key.');
  return { account, key };
}

/** The account and key of a path that names one. */
async function keyContext(app: FastifyInstance, request: FastifyRequest<{ Params: Params }>): Promise<{ account: Account; key: ApiKey }> {
  const { account, key } = await context(app, request);
  return { account, key: key! };
}

const keyPath = (account: Account, key: ApiKey, rest = '') => accountPath(account.id, `/keys/${encodeURIComponent(key.id)}${rest}`);

/** The key's page with its last use and the rotation under way; `extra` says what was just done or refused. */
async function renderKey(
  app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, status: number, account: Account, key: ApiKey, extra: Pick<KeyPageOptions, 'done' | 'refused'>,
) {
  const days = usageDays((request.query as Record<string, unknown> | undefined)?.days);
  const [rotations, report] = await Promise.all([app.store.panel.listRotations(account.id), usageReport(app.store, key, { now: app.now(), days })]);
  const rotation = rotations.find((candidate) => candidate.oldKeyId === key.id && candidate.finishedAt === null);
  return sendPage(reply, status, keyPage({ signedIn: signedIn(request), account, key, use: report.lastUse ?? undefined, rotation, usage: { report, days }, intervals: app.config, ...extra }));
}

export default async function keyRoutes(app: FastifyInstance): Promise<void> {
  listRoutes(app);
  creationRoutes(app);
  restrictionRoutes(app);
  statusRoutes(app);
  rotationRoutes(app);
}

/** The account's keys, and one key's page. */
function listRoutes(app: FastifyInstance): void {
  app.get<{ Params: Params; Querystring: { done?: string } }>(BASE, user, async (request, reply) => {
    const { account } = await context(app, request);
    const [keys, uses, rotations] = await Promise.all([app.store.listKeys(account.id), app.store.panel.keyUses(account.id), app.store.panel.listRotations(account.id)]);
    // The last 24 clock hours, the current one included, of every key in one read.
    const since = (Math.floor(app.now() / HOUR_MS) - 23) * HOUR_MS;
    const hours = await app.store.usage.usageOfKeys(keys.map((key) => key.id), since);
    const recent = new Map(keys.map((key) => [key.id, { used: 0, refused: 0 }]));
    for (const hour of hours) recent.set(hour.keyId, addedUp(recent.get(hour.keyId)!, hour));
    return sendPage(reply, 200, keysPage({ signedIn: signedIn(request), account, keys, uses, rotations, recent, done: request.query.done }));
  });

  app.get<{ Params: Params; Querystring: { done?: string } }>(`${BASE}/:keyId`, user, async (request, reply) => {
    const { account, key } = await keyContext(app, request);
    return renderKey(app, request, reply, 200, account, key, { done: request.query.done });
  });
}

/** A new key: the form, and the key made, its secret shown once. */
function creationRoutes(app: FastifyInstance): void {
  // The form says how far the account's ceiling lets its hourly limit go.
  const ceiling = (request: FastifyRequest, account: Account) => {
    const change = panelContext(app, request);
    return ceilingOf(change, account.id, change.limitDefaults!);
  };
  app.get<{ Params: Params }>(`${BASE}/new`, user, async (request, reply) => {
    const { account } = await context(app, request);
    return sendPage(reply, 200, newKeyPage({ signedIn: signedIn(request), account, ceiling: await ceiling(request, account) }));
  });

  app.post<{ Params: Params }>(BASE, user, async (request, reply) => {
    const { account } = await context(app, request);
    requireRecentAuth(request, app.now(), accountPath(account.id, '/keys/new'));
    const values: NewKeyValues = {
      ...EMPTY_KEY,
      label: formField(request, 'label'),
      mode: formField(request, 'mode') === 'test' ? 'test' : 'live',
      origins: formField(request, 'origins'),
      ipRanges: formField(request, 'ip_ranges'),
      hourlyLimit: formField(request, 'hourly_limit').trim(),
    };
    try {
      const limit = values.hourlyLimit === '' ? null : /^\d{1,10}$/.test(values.hourlyLimit) ? Number(values.hourlyLimit) : Number.NaN;
      if (Number.isNaN(limit)) throw new LocError('validation_error', `hourly limit must be a whole number, received ${JSON.stringify(values.hourlyLimit.slice(0, 20))}.`, 'hourly_limit');
      const origins = lines(values.origins).map((origin) => checkOrigin(origin, 'origins'));
      const ipRanges = lines(values.ipRanges).map((range) => checkIpRange(range, 'ip_ranges'));
      const { key, secret } = await createKey(panelContext(app, request), { accountId: account.id, mode: values.mode, label: values.label.trim() || null, origins, ipRanges, hourlyLimit: limit });
      return sendPage(reply, 201, keyCreatedPage({ signedIn: signedIn(request), account, key, secret }));
    } catch (error) {
      if (!(error instanceof LocError) || error.status !== 422) throw error;
      request.errorCode = error.code;
      const refusal = { field: error.field, message: error.message };
      return sendPage(reply, 422, newKeyPage({ signedIn: signedIn(request), account, values, error: refusal, ceiling: await ceiling(request, account) }));
    }
  });
}

/** The key's allowed origins and IP ranges, added and removed. */
function restrictionRoutes(app: FastifyInstance): void {
  for (const [path, { list, field, added, removed, present, absent }] of Object.entries(LISTS)) {
    app.post<{ Params: Params }>(`${BASE}/:keyId/${path}`, user, async (request, reply) => {
      const { account, key } = await keyContext(app, request);
      requireRecentAuth(request, app.now(), keyPath(account, key));
      const input = formField(request, field).trim();
      let done: string = added;
      try {
        const updated = await addToKeyList(panelContext(app, request), { keyId: key.id, list, value: input, field });
        if (updated !== null && !changed(updated)) done = present;
      } catch (error) {
        if (!(error instanceof LocError)) throw error;
        request.errorCode = error.code;
        return renderKey(app, request, reply, 422, account, key, { refused: { list: path as keyof typeof LISTS, input, message: error.message } });
      }
      return reply.redirect(`${keyPath(account, key)}?done=${done}#${path}`, 303);
    });
    app.post<{ Params: Params }>(`${BASE}/:keyId/${path}/remove`, user, async (request, reply) => {
      const { account, key } = await keyContext(app, request);
      requireRecentAuth(request, app.now(), keyPath(account, key));
      const updated = await removeFromKeyList(panelContext(app, request), { keyId: key.id, list, value: formField(request, field), field });
      const done = updated !== null && changed(updated) ? removed : absent;
      return reply.redirect(`${keyPath(account, key)}?done=${done}#${path}`, 303);
    });
  }
}

/** Disabling and enabling a key. */
function statusRoutes(app: FastifyInstance): void {
  for (const status of ['disabled', 'active'] as const) {
    app.post<{ Params: Params }>(`${BASE}/:keyId/${status === 'disabled' ? 'disable' : 'enable'}`, user, async (request, reply) => {
      const { account, key } = await keyContext(app, request);
      requireRecentAuth(request, app.now(), keyPath(account, key));
      await setKeyStatus(panelContext(app, request), key.id, status);
      return reply.redirect(`${keyPath(account, key)}?done=${status === 'disabled' ? 'disabled' : 'enabled'}`, 303);
    });
  }
}

/** Rotation as one guided flow: a replacement, its page, and the old key disabled once the new one is in use. */
function rotationRoutes(app: FastifyInstance): void {
  app.post<{ Params: Params }>(`${BASE}/:keyId/rotate`, user, async (request, reply) => {
    const { account, key } = await keyContext(app, request);
    requireRecentAuth(request, app.now(), keyPath(account, key));
    const { key: replacement, secret } = await rotateKey(panelContext(app, request), key);
    return sendPage(reply, 201, keyCreatedPage({ signedIn: signedIn(request), account, key: replacement, secret, replacing: key }));
  });

  app.get<{ Params: Params }>(`${BASE}/:keyId/rotation`, user, async (request, reply) => {
    const { account, key } = await keyContext(app, request);
    const { rotation, newKey } = await findRotation(app.store, key);
    const uses = new Map((await app.store.panel.keyUses(account.id)).map((use) => [use.keyId, use]));
    return sendPage(reply, 200, rotationPage({ signedIn: signedIn(request), account, oldKey: key, newKey, rotation, uses, intervals: app.config }));
  });

  app.post<{ Params: Params }>(`${BASE}/:keyId/rotation/finish`, user, async (request, reply) => {
    const { account, key } = await keyContext(app, request);
    requireRecentAuth(request, app.now(), keyPath(account, key, '/rotation'));
    await finishRotation(panelContext(app, request), key, formField(request, 'confirm') === 'yes');
    return reply.redirect(`${accountPath(account.id, '/keys')}?done=rotated`, 303);
  });
}
