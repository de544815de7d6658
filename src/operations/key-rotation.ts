/**
 * Rotating an API key as one guided change: a replacement with the old key's settings and a new
 * secret, then — once the replacement is in use, or the caller confirms without — the old key
 * disabled and the rotation finished.
 */
import { issueKey } from '../auth/keys.ts';
import { LocError } from '../errors.ts';
import type { Rotation } from '../store/panel-store.ts';
import type { ApiKey, Store, Updated } from '../store/store.ts';
import { capped } from './caps.ts';
import { audit, changed, type ChangeContext } from './change-context.ts';
import type { IssuedKey } from './keys.ts';

/**
 * Starts rotating `old`, which must be active as the store holds it — not as a server's cache last
 * read it, which the CLI or another server may have changed since: its replacement, with the settings
 * the store holds, whose secret is shown this once. A rotation under way is finished before another
 * starts, unless its replacement was disabled (it leaked, say): two replacements in flight would leave
 * the partner unsure which one to deploy.
 */
export async function rotateKey(context: ChangeContext, old: ApiKey): Promise<IssuedKey> {
  // listKeys is never cached (store/cached.ts), getKey may be.
  const keys = await context.store.listKeys(old.accountId);
  const stored = keys.find((candidate) => candidate.id === old.id);
  if (stored === undefined) throw new LocError('not_found', 'This account has no such key.');
  if (stored.status !== 'active') throw new LocError('validation_error', 'Only an active key is rotated; enable it first, or create a new key.', 'key');
  const [under] = (await context.store.panel.listRotations(old.accountId)).filter((rotation) => rotation.oldKeyId === old.id && rotation.finishedAt === null);
  if (under !== undefined && keys.find((key) => key.id === under.newKeyId)?.status === 'active') {
    const since = new Date(under.startedAt).toISOString();
    throw new LocError(
      'validation_error',
      `A rotation of this key to ${under.newKeyId} is under way since ${since}: finish it once ${under.newKeyId} is in use, or disable ${under.newKeyId} to start another.`,
      'key',
    );
  }
  // One entry for the rotation, naming the replacement, rather than a key.create of its own. The
  // replacement may go one past the cap of active keys: a key at the cap can always be rotated, and
  // finishing the rotation gives the place back.
  const replacement = await capped(context.caps, 'keys', undefined, (most) => issueKey(context.store, {
    accountId: stored.accountId, mode: stored.mode, label: stored.label, origins: stored.origins, ipRanges: stored.ipRanges,
    hourlyLimit: stored.hourlyLimit, embedHourlyLimit: stored.embedHourlyLimit, sessionLimit: stored.sessionLimit, createdAt: context.now,
  }, most === undefined ? undefined : most + 1));
  await context.store.panel.startRotation({ oldKeyId: stored.id, newKeyId: replacement.key.id, startedAt: context.now });
  await audit(context, { accountId: stored.accountId, action: 'key.rotate', target: stored.id, details: { replacement: replacement.key.id } });
  return replacement;
}

/** The latest rotation of `old` and its replacement; `not_found` when the key was never rotated. */
export async function findRotation(store: Store, old: ApiKey): Promise<{ rotation: Rotation; newKey: ApiKey }> {
  const rotation = (await store.panel.listRotations(old.accountId)).find((candidate) => candidate.oldKeyId === old.id);
  const newKey = rotation === undefined ? null : await store.getKey(rotation.newKeyId);
  if (rotation === undefined || newKey === null) throw new LocError('not_found', 'This key has no rotation; start one from the key’s page.');
  return { rotation, newKey };
}

/**
 * Finishes the rotation of `old`: disables it, once its replacement has been used since the rotation
 * began or the caller `confirmed` that it may go without. The old key before and after. One audit
 * entry when it changed anything: the key disabled, or — the key already disabled by other means —
 * the rotation ended.
 */
export async function finishRotation(context: ChangeContext, old: ApiKey, confirmed: boolean): Promise<Updated<ApiKey>> {
  const { rotation, newKey } = await findRotation(context.store, old);
  const uses = await context.store.panel.keyUses(old.accountId);
  const arrived = uses.some((use) => use.keyId === newKey.id && use.at >= rotation.startedAt);
  if (!arrived && !confirmed) throw new LocError('validation_error', 'The new key has not been used yet: tick the box to disable the old key anyway.', 'confirm');
  const updated = await context.store.setKeyStatus(old.id, 'disabled');
  if (updated === null) throw new LocError('not_found', 'This account has no such key.');
  const ended = await context.store.panel.finishRotation(old.id, context.now);
  if (changed(updated)) {
    await audit(context, { accountId: old.accountId, action: 'key.disable', target: old.id, details: { rotation: 'finished', replacement: newKey.id } });
  } else if (ended > 0) {
    await audit(context, { accountId: old.accountId, action: 'key.rotation_finish', target: old.id, details: { replacement: newKey.id } });
  }
  return updated;
}
