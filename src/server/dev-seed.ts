/**
 * The development seed of `npm start`: on the first start with an empty database, a partner account
 * and an API key that the demo page (`http://localhost:5173`, or LOC_DEMO_PORT) may embed with, so a
 * fresh clone works without any operator step. The key is written to a file only its owner can read,
 * never printed.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_DEMO_PORT, demoOrigin } from '../../demo/server.ts';
import { issueKey } from '../auth/keys.ts';
import { originProblem } from '../auth/origin.ts';
import { hashSecret } from '../auth/secrets.ts';
import type { Store } from '../store/store.ts';
import type { Config } from './config.ts';

export const DEV_ACCOUNT = 'development';
/** The key file, inside the data directory. */
export const DEV_KEY_FILE = 'dev-api-key';
/** Generous, so end-to-end suites never meet the limit, neither with the key nor with the demo's maps. */
const DEV_HOURLY_LIMIT = 100_000;

/**
 * Seeds an empty database; returns the lines to print either way. The key allows `pageOrigin`, the
 * demo's page. A database with accounts gets no key, and a database seeded before keeps its key as it
 * is; a warning says when the demo then has no working key — none, one the database lacks, or one
 * that does not allow `pageOrigin` (the demo moved to another LOC_DEMO_PORT) — and what to do: the
 * page would otherwise load and every map on it fail.
 */
export async function seedDevelopment(
  store: Store,
  config: Config,
  now: number,
  pageOrigin: string = demoOrigin(DEFAULT_DEMO_PORT),
): Promise<string[]> {
  const file = join(config.dataDir, DEV_KEY_FILE);
  const shown = relative(process.cwd(), file).startsWith('..') ? file : `./${relative(process.cwd(), file)}`;
  if ((await store.listAccounts()).length > 0) {
    // Accounts made with the CLI before the first start: nothing is seeded, and the demo page has no
    // key to create its sessions with. Say so, rather than leave a page whose every map fails.
    if (!existsSync(file)) {
      return [
        `warning: no development key: the database had accounts before its first start with --seed-dev, so none was seeded, and the demo page cannot create sessions; ` +
          `write the secret of a partner key that allows ${pageOrigin} to ${shown}`,
      ];
    }
    let secret: string;
    try {
      secret = readFileSync(file, 'utf8').trim();
    } catch {
      // Not ours to read (another user's file, a directory): the demo will say what it finds.
      return [`Development API key: in ${shown}`];
    }
    const found = await store.findKeyByHash(hashSecret(secret));
    // A database put in place from a backup of another one: the file's key is not in it.
    if (found === null) {
      return [
        `Development API key: in ${shown}`,
        `warning: that key is not a key of this database (restored from another?), so the demo's sessions fail with invalid_api_key; ` +
          `write the secret of a partner key that allows ${pageOrigin} to ${shown}`,
      ];
    }
    if (found.key.origins.includes(pageOrigin)) return [`Development API key: in ${shown}`];
    return [
      `Development API key: in ${shown}`,
      `warning: that key (${found.key.id}) does not allow ${pageOrigin}, the demo page's origin, so the demo's maps fail with origin_not_allowed; ` +
        `allow it with: loc keys origins add ${found.key.id} ${pageOrigin}`,
    ];
  }
  const account = await store.createAccount({ name: DEV_ACCOUNT, partner: true, createdAt: now });
  const ownOrigin = new URL(config.publicUrl).origin;
  // Only where the embed rules accept it: an origin no page could frame the map from (plain http other
  // than localhost, an IPv6 address) is left out rather than stopping the start.
  const origins = originProblem(ownOrigin) === null ? [pageOrigin, ownOrigin] : [pageOrigin];
  const { key, secret } = await issueKey(store, {
    accountId: account.id, origins, hourlyLimit: DEV_HOURLY_LIMIT, embedHourlyLimit: DEV_HOURLY_LIMIT, label: 'development (created by npm start)', createdAt: now,
  });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return [
    `Empty database: created the partner account "${DEV_ACCOUNT}" and the API key ${key.id} (origins ${origins.join(', ')}).`,
    `Development API key: written to ${shown} (readable only by you).`,
  ];
}
