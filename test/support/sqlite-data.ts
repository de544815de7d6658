/**
 * A SQLite data directory with a bit of everything loc keeps, made through the store port as the
 * service makes it: accounts (partner or not), live and test keys (one disabled; origins, IP ranges,
 * limits and labels, and keys with none of them), embed sessions with and without an area, saved
 * locations, live and test, with and without address and label, and the partner panel's records: an
 * active operator and an invited user, a used and an open link, a passkey, a panel session, a
 * challenge, a finished rotation and keys' last uses; hours of keys' usage, both kinds, and audit log
 * entries from the panel and the CLI, with and without a target. What `loc db copy-from-sqlite` must carry over,
 * value for value; every column holds a value in some row and NULL in another where it may.
 */
import { issueKey } from '../../src/auth/keys.ts';
import { hashSecret } from '../../src/auth/secrets.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite.ts';
import type { AuditEntry } from '../../src/store/audit-store.ts';
import type { User } from '../../src/store/panel-store.ts';
import type { ApiKey } from '../../src/store/store.ts';

const T0 = Date.UTC(2030, 0, 1, 12);

/** The Eiffel Tower's cell, as `GET /v1/loc/lookup/{code}` finds it. */
export const EIFFEL = { code: 'FR-0RMB-CLY0', latitude: 48.8584, longitude: 2.2945 };

export interface SqliteData {
  /** The live key of `acme`, with its secret, and the test key, with its. */
  live: { key: ApiKey; secret: string };
  test: { key: ApiKey; secret: string };
  disabled: { key: ApiKey; secret: string };
  /** Session ids made, with and without an area. */
  sids: string[];
  /** Account names. */
  accounts: string[];
  /** The panel's users: `ada`, active, an operator; `bob`, invited. */
  users: { ada: User; bob: User };
  /** The audit log's entries, oldest first. */
  audit: AuditEntry[];
}

/** What the panel's records are found by: bob's open invitation, ada's passkey and panel session, and when they still work. */
export const PANEL = {
  openLink: hashSecret('link-token-bob'),
  passkey: 'Y3JlZGVudGlhbC1hZGE',
  session: hashSecret('panel-session-ada'),
  /** A moment when all of them still work. */
  now: T0 + 60_000,
};

export async function fillSqliteData(dataDir: string): Promise<SqliteData> {
  const store = openSqliteStore(dataDir);
  try {
    const acme = await store.createAccount({ name: 'acme', partner: true, createdAt: T0 });
    const globex = await store.createAccount({ name: 'globex', partner: false, createdAt: T0 + 1 });
    await store.setAccountLimits(acme.id, { hourlyLimit: 20_000, embedHourlyLimit: 90_000, sessionLimit: 800 });
    const live = await issueKey(store, {
      accountId: acme.id, mode: 'live', origins: ['https://shop.example', 'http://localhost:5173'], ipRanges: ['127.0.0.0/8', '2001:db8::/32'],
      hourlyLimit: 500, embedHourlyLimit: 40, sessionLimit: 7, label: 'production', createdAt: T0 + 2,
    });
    const test = await issueKey(store, { accountId: acme.id, mode: 'test', origins: ['http://localhost:5173'], label: 'ci', createdAt: T0 + 3 });
    const disabled = await issueKey(store, { accountId: globex.id, mode: 'live', ipRanges: ['203.0.113.0/24'], hourlyLimit: 9, label: null, createdAt: T0 + 4 });
    await store.setKeyStatus(disabled.key.id, 'disabled');
    await store.createSession({
      sid: 'sid_area', secretHash: hashSecret('session-secret-1'), keyId: live.key.id, origin: 'https://shop.example', createdAt: T0 + 5, expiresAt: T0 + 3_600_000,
      countries: ['FR', 'DE'], bounds: { south: 48.1, west: -179.5, north: 49.25, east: 179.75 },
    });
    await store.createSession({ sid: 'sid_plain', secretHash: hashSecret('session-secret-2'), keyId: test.key.id, origin: 'http://localhost:5173', createdAt: T0 + 6, expiresAt: T0 + 7_200_000 });
    await store.saveLocation({ accountId: acme.id, mode: 'live', ...EIFFEL, address: 'Champ de Mars, Paris', label: 'the tower ✓', createdAt: T0 + 7 });
    await store.saveLocation({ accountId: acme.id, mode: 'live', code: 'US-550M-RQ5L', latitude: 40.689247, longitude: -74.044502, address: null, label: null, createdAt: T0 + 8 });
    await store.saveLocation({ accountId: acme.id, mode: 'test', ...EIFFEL, address: null, label: 'from CI', createdAt: T0 + 9 });
    await store.saveLocation({ accountId: acme.id, mode: 'test', code: 'US-550M-RQ5L', latitude: 40.689247, longitude: -74.044502, address: 'Liberty Island', label: null, createdAt: T0 + 11 });
    await store.saveLocation({ accountId: globex.id, mode: 'live', ...EIFFEL, address: 'Paris', label: null, createdAt: T0 + 10 });

    const ada = await store.panel.createUser({ accountId: acme.id, email: 'ada@acme.example', operator: true, createdAt: T0 + 12 });
    const bob = await store.panel.createUser({ accountId: globex.id, email: 'bob@globex.example', operator: false, createdAt: T0 + 13 });
    await store.panel.createLink({ userId: ada.id, purpose: 'invite', hash: hashSecret('link-token-ada'), createdAt: T0 + 12, expiresAt: T0 + 7 * 86_400_000 });
    await store.panel.useLink(hashSecret('link-token-ada'), T0 + 14);
    await store.panel.setPassword(ada.id, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', T0 + 14);
    await store.panel.createLink({ userId: bob.id, purpose: 'recovery', hash: PANEL.openLink, createdAt: T0 + 13, expiresAt: T0 + 86_400_000 });
    await store.panel.addPasskey({
      id: PANEL.passkey, userId: ada.id, publicKey: 'pQECAyYgASFYIGJ5dGVz', counter: 3, transports: ['internal', 'hybrid'], name: 'Passkey added 2030-01-01, Chrome on Linux',
      createdAt: T0 + 15, lastUsedAt: T0 + 16,
    });
    await store.panel.createPanelSession({
      hash: PANEL.session, userId: ada.id, createdAt: T0 + 16, expiresAt: T0 + 8 * 3_600_000, authenticatedAt: T0 + 17, ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    });
    await store.panel.createChallenge({ challenge: 'Y2hhbGxlbmdlLWFkYQ', purpose: 'register', userId: ada.id, expiresAt: T0 + 300_000 });
    // globex's disabled key was replaced by a new one: the rotation ended when it was disabled.
    const replacement = await issueKey(store, { accountId: globex.id, mode: 'live', label: 'replacement', createdAt: T0 + 18 });
    await store.panel.startRotation({ oldKeyId: disabled.key.id, newKeyId: replacement.key.id, startedAt: T0 + 18 });
    await store.panel.held.hold({ accountId: globex.id, email: ada.email, invitedBy: bob.email, createdAt: T0 + 18 });
    await store.panel.finishRotation(disabled.key.id, T0 + 19);
    await store.panel.recordKeyUses([
      { keyId: live.key.id, at: T0 + 20, origin: 'https://shop.example', ip: '203.0.113.7' },
      { keyId: test.key.id, at: T0 + 21, origin: null, ip: '2001:db8::7' },
    ]);
    await store.usage.addUsage([
      { keyId: live.key.id, kind: 'server', hour: T0, used: 120, refused: { limit: 3, origin: 0, ip: 1, inactive: 0 } },
      { keyId: live.key.id, kind: 'embed', hour: T0, used: 40, refused: { limit: 0, origin: 2, ip: 0, inactive: 0 } },
      { keyId: disabled.key.id, kind: 'server', hour: T0 + 3_600_000, used: 0, refused: { limit: 0, origin: 0, ip: 0, inactive: 5 } },
    ]);
    const audit = [
      await store.audit.appendAudit({
        at: T0 + 22, accountId: acme.id, via: 'panel', actor: 'ada@acme.example', source: '203.0.113.7', action: 'key.set_limits', target: live.key.id,
        details: { hourlyLimit: 500, embedHourlyLimit: 40, sessionLimit: null, origins: ['https://shop.example', 'http://localhost:5173'], partner: true },
      }),
      await store.audit.appendAudit({
        at: T0 + 23, accountId: globex.id, via: 'cli', actor: 'root', source: 'ops-1', action: 'account.partner_off', target: null, details: {},
      }),
    ];
    return {
      audit,
      live: { key: (await store.getKey(live.key.id))!, secret: live.secret },
      test: { key: (await store.getKey(test.key.id))!, secret: test.secret },
      disabled: { key: (await store.getKey(disabled.key.id))!, secret: disabled.secret },
      sids: ['sid_area', 'sid_plain'],
      accounts: ['acme', 'globex'],
      users: { ada: (await store.panel.getUser(ada.id))!, bob },
    };
  } finally {
    await store.close();
  }
}
