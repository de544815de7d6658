/**
 * The development seed of `loc serve --seed-dev` (what `npm start` runs): on the first start with an
 * empty database, a partner account and an API key that pages on the development origins may embed
 * with, so a fresh clone works without any operator step. The key is written to a file only its owner
 * can read, never printed.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { issueKey } from '../../auth/keys.ts';
import { checkOrigin, originProblem } from '../../auth/origin.ts';
import { hashSecret } from '../../auth/secrets.ts';
import type { Store } from '../../store/store.ts';
import { ConfigError, type Config } from '../config.ts';

export const DEV_ACCOUNT = 'development';
/** The key file, inside the data directory. */
export const DEV_KEY_FILE = 'dev-api-key';
/** Generous, so end-to-end suites never meet the limit, neither with the key nor with the pages' maps. */
const DEV_HOURLY_LIMIT = 100_000;
/** Where a front-end development server listens unless told otherwise (Vite's default port). */
export const DEFAULT_DEV_ORIGIN = 'http://localhost:5173';

/**
 * The development origins of `--dev-origin`, each checked as a key's origin is; DEFAULT_DEV_ORIGIN
 * when none is given. Throws a ConfigError naming the flag, before any database is opened.
 */
export function devOrigins(given: readonly string[]): string[] {
  if (given.length === 0) return [DEFAULT_DEV_ORIGIN];
  return [
    ...new Set(
      given.map((origin) => {
        try {
          return checkOrigin(origin, '--dev-origin');
        } catch (error) {
          throw new ConfigError((error as Error).message);
        }
      }),
    ),
  ];
}

/**
 * Seeds an empty database; returns the lines to print either way. The key allows `pageOrigins`, the
 * development pages' origins. A database with accounts gets no key, and a database seeded before
 * keeps its key as it is; a warning says when those pages then have no working key — none, one the
 * database lacks, or one that does not allow all of `pageOrigins` (a page moved to another port) —
 * and what to do: a page would otherwise load and every map on it fail.
 */
export async function seedDevelopment(store: Store, config: Config, now: number, pageOrigins: readonly string[] = [DEFAULT_DEV_ORIGIN]): Promise<string[]> {
  const file = join(config.dataDir, DEV_KEY_FILE);
  const shown = relative(process.cwd(), file).startsWith('..') ? file : `./${relative(process.cwd(), file)}`;
  const writeKey = `write the secret of a partner key that allows ${pageOrigins.join(', ')} to ${shown}`;
  if ((await store.listAccounts()).length > 0) {
    // Accounts made with the CLI before the first start: nothing is seeded, and the development pages
    // have no key to create their sessions with. Say so, rather than leave pages whose every map fails.
    if (!existsSync(file)) {
      return [`warning: no development key: the database had accounts before its first start with --seed-dev, so none was seeded, and the development pages cannot create sessions; ${writeKey}`];
    }
    let secret: string;
    try {
      secret = readFileSync(file, 'utf8').trim();
    } catch {
      // Not ours to read (another user's file, a directory): whoever reads it will say what they find.
      return [`Development API key: in ${shown}`];
    }
    const found = await store.findKeyByHash(hashSecret(secret));
    // A database put in place from a backup of another one: the file's key is not in it.
    if (found === null) {
      return [
        `Development API key: in ${shown}`,
        `warning: that key is not a key of this database (restored from another?), so sessions created with it fail with invalid_api_key; ${writeKey}`,
      ];
    }
    const missing = pageOrigins.filter((origin) => !found.key.origins.includes(origin));
    if (missing.length === 0) return [`Development API key: in ${shown}`];
    const commands = missing.map((origin) => `loc keys origins add ${found.key.id} ${origin}`);
    return [
      `Development API key: in ${shown}`,
      `warning: that key (${found.key.id}) does not allow ${missing.join(', ')} (--dev-origin), so maps embedded there fail with origin_not_allowed; ` +
        `allow ${missing.length === 1 ? 'it' : 'them'} with: ${commands.join('; ')}`,
    ];
  }
  const account = await store.createAccount({ name: DEV_ACCOUNT, partner: true, createdAt: now });
  const ownOrigin = new URL(config.publicUrl).origin;
  // Only where the embed rules accept it: an origin no page could frame the map from (plain http other
  // than localhost, an IPv6 address) is left out rather than stopping the start.
  const origins = originProblem(ownOrigin) === null ? [...pageOrigins, ownOrigin] : [...pageOrigins];
  const { key, secret } = await issueKey(store, {
    accountId: account.id, origins, hourlyLimit: DEV_HOURLY_LIMIT, embedHourlyLimit: DEV_HOURLY_LIMIT, label: 'development (created by npm start)', createdAt: now,
  });
  // On SQLite the store made the directory; on PostgreSQL nothing else needs it, and the key file
  // still goes there, private as a data directory is.
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return [
    `Empty database: created the partner account "${DEV_ACCOUNT}" and the API key ${key.id} (origins ${key.origins.join(', ')}).`,
    `Development API key: written to ${shown} (readable only by you).`,
  ];
}
