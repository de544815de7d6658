/**
 * The one-time move of a SQLite data directory into PostgreSQL (`loc db copy-from-sqlite`), in one
 * transaction: all of it lands, or nothing does. Ids, key hashes, times, lists, limits, statuses,
 * sessions and saved locations are kept as they are, so that every key, session token and code
 * handed out before the move works after it.
 *
 * What to copy is read from the SQLite schema itself — every table, every column — not from a list
 * kept here: a column a later migration adds is copied with the rest, or, when the PostgreSQL schema
 * lacks it, the copy refuses rather than drop it. Each value is converted by the type of its
 * PostgreSQL column (0/1 to boolean, JSON text to text[] or jsonb); everything else goes as it is.
 *
 * The SQLite file is opened read-only, in one read transaction, so the copy is of one moment even
 * if something writes meanwhile; the operator stops the SQLite server first all the same, so that
 * nothing is written there after the copy that PostgreSQL would miss.
 */
import Database from 'better-sqlite3';
import type pg from 'pg';
import { join } from 'node:path';
import { redactUrl } from '../store/database-url.ts';
import { translatePostgresError } from '../store/postgres/postgres-errors.ts';
import { migrate } from '../store/postgres/postgres-migrations.ts';
import { newPool } from '../store/postgres/postgres-pool.ts';
import { translateSqliteError } from '../store/sqlite/sqlite-errors.ts';
import { DATABASE_FILE, prepareDataDir } from '../store/sqlite/sqlite-files.ts';
import { MIGRATIONS } from '../store/sqlite/sqlite-migrations.ts';
import { NoDatabase, StoreUnavailable } from '../store/store.ts';

/**
 * Why the copy cannot be made, said in one line. No row was written to PostgreSQL; loc's tables may
 * have been made there, as `loc db migrate` makes them.
 */
export class CannotCopy extends Error {
  override readonly name = 'CannotCopy';
}

export interface CopyReport {
  /** The SQLite file copied. */
  from: string;
  /** The PostgreSQL database, without its password. */
  to: string;
  /** Rows copied, per table, in the order they were copied. */
  rows: Record<string, number>;
}

/** A table of the SQLite schema: its columns in order, its primary key (to name a row), the tables it refers to. */
interface SourceTable {
  name: string;
  columns: string[];
  key: string[];
  parents: string[];
}

/** Bound values per INSERT: well under PostgreSQL's 65 535, in statements that each take far less than the 5 s they may. */
const VALUES_PER_STATEMENT = 30_000;

/**
 * Copies the loc database of `dataDir` into the PostgreSQL database at `url`, creating loc's tables
 * there if it has none. Throws NoDatabase when `dataDir` holds no loc database, CannotCopy when the copy
 * cannot be made as things are (a SQLite schema of another version, a PostgreSQL database that holds
 * data already, a value PostgreSQL cannot store), StoreUnavailable when PostgreSQL cannot be used.
 */
export async function copySqliteToPostgres(dataDir: string, url: string): Promise<CopyReport> {
  const to = redactUrl(url);
  const source = openSource(dataDir);
  try {
    const tables = sourceTables(source);
    const pool = await newPool(url);
    try {
      const client = await pool.connect();
      try {
        await migrate(client, to, true);
        return { from: join(dataDir, DATABASE_FILE), to, rows: await copyTables(source, client, tables, to) };
      } finally {
        client.release();
      }
    } catch (error) {
      throw refusal(translatePostgresError(error));
    } finally {
      await pool.end();
    }
  } finally {
    source.close();
  }
}

/** The SQLite database of `dataDir`, read-only, at the schema version this loc writes. */
function openSource(dataDir: string): Database.Database {
  prepareDataDir(dataDir, false);
  let db: Database.Database | undefined;
  try {
    db = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === 0) throw new NoDatabase(dataDir, `its ${DATABASE_FILE} holds no loc schema`);
    if (version < MIGRATIONS.length) {
      throw new CannotCopy(
        `the SQLite database in ${dataDir} has schema version ${version}, and this loc copies version ${MIGRATIONS.length}: ` +
          `run loc db migrate with LOC_DATA_DIR=${dataDir} first`,
      );
    }
    if (version > MIGRATIONS.length) {
      throw new CannotCopy(`the SQLite database in ${dataDir} has schema version ${version}, newer than this loc knows (${MIGRATIONS.length}): copy it with the loc that wrote it`);
    }
    return db;
  } catch (error) {
    db?.close();
    const translated = translateSqliteError(error);
    if (translated instanceof StoreUnavailable) throw new CannotCopy(`cannot read the SQLite database in ${dataDir}: ${translated.message}`);
    throw translated;
  }
}

/** Every table of the SQLite schema, each after the tables it refers to, so that foreign keys hold at every insert. */
function sourceTables(db: Database.Database): SourceTable[] {
  const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").pluck().all() as string[];
  const tables = names.map((name): SourceTable => {
    const columns = db.prepare('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as { name: string; pk: number }[];
    return {
      name,
      columns: columns.map((column) => column.name),
      key: columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name),
      parents: db.prepare('SELECT "table" FROM pragma_foreign_key_list(?)').pluck().all(name) as string[],
    };
  });
  const ordered: SourceTable[] = [];
  while (ordered.length < tables.length) {
    const next = tables.find((table) => !ordered.includes(table) && table.parents.every((parent) => parent === table.name || ordered.some((done) => done.name === parent)));
    if (next === undefined) throw new Error(`the SQLite schema's foreign keys form a cycle among ${tables.filter((table) => !ordered.includes(table)).map((table) => table.name).join(', ')}`);
    ordered.push(next);
  }
  return ordered;
}

/** Copies every table in one transaction on `client`; refuses, having written nothing, a database that holds data. */
async function copyTables(source: Database.Database, client: pg.PoolClient, tables: SourceTable[], to: string): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  await client.query('BEGIN');
  try {
    // A server started on the database too early waits until the copy is in, rather than write beside it.
    await client.query(`LOCK TABLE ${tables.map((table) => quote(table.name)).join(', ')} IN EXCLUSIVE MODE`);
    const types = new Map<string, Map<string, string>>();
    for (const table of tables) types.set(table.name, await targetTypes(client, table));
    const identities = new Map<string, string[]>();
    for (const table of tables) identities.set(table.name, await identityColumns(client, table));
    // Everything loc keeps hangs off an account: none, and the database holds no one's data. Tables a
    // migration fills (loc_schema) are no data of anyone's, and are not asked about.
    const { rows: [held] } = await client.query<{ n: number }>('SELECT count(*)::integer AS n FROM accounts');
    if (held.n > 0) {
      throw new CannotCopy(
        `the PostgreSQL database ${to} already holds ${held.n} account${held.n === 1 ? '' : 's'}: ` +
          'the copy is for an empty database, a new one or one only loc db migrate has run on',
      );
    }
    // One read transaction: every table as it was at one moment.
    source.exec('BEGIN');
    try {
      for (const table of tables) rows[table.name] = await copyTable(source, client, table, types.get(table.name)!, identities.get(table.name)!);
    } finally {
      source.exec('COMMIT');
    }
    await client.query('COMMIT');
    return rows;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** The PostgreSQL type of each column of `table`, as a cast names it; refuses a table or column PostgreSQL lacks. */
async function targetTypes(client: pg.PoolClient, table: SourceTable): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; type: string }>(
    'SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped',
    [quote(table.name)],
  );
  const types = new Map(rows.map((row) => [row.name, row.type]));
  const missing = table.columns.filter((column) => !types.has(column));
  if (rows.length === 0 || missing.length > 0) {
    throw new CannotCopy(
      `the PostgreSQL schema has no ${rows.length === 0 ? `table ${table.name}` : `column ${missing.map((column) => `${table.name}.${column}`).join(', ')}`}, ` +
        "which this loc's SQLite schema has: the two schemas of this loc differ, a bug to report; nothing was copied",
    );
  }
  return types;
}

/**
 * The columns of `table` PostgreSQL numbers itself (GENERATED … AS IDENTITY: the audit log's seq), whose
 * SQLite values the copy keeps: an entry's seq is its place in the log, which readers page by.
 */
async function identityColumns(client: pg.PoolClient, table: SourceTable): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT attname AS name FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped AND attidentity <> ''",
    [quote(table.name)],
  );
  return rows.map((row) => row.name);
}

/**
 * Copies the rows of one table, several to a statement, each value converted to its column's PostgreSQL
 * type. Identity columns take SQLite's values, and their sequence then starts past the highest, so that
 * the next row PostgreSQL numbers comes after every copied one rather than collide with it.
 */
async function copyTable(
  source: Database.Database, client: pg.PoolClient, table: SourceTable, types: Map<string, string>, identity: string[],
): Promise<number> {
  const { columns } = table;
  const perStatement = Math.max(1, Math.floor(VALUES_PER_STATEMENT / columns.length));
  const overriding = identity.length > 0 ? 'OVERRIDING SYSTEM VALUE ' : '';
  const insert = `INSERT INTO ${quote(table.name)} (${columns.map(quote).join(', ')}) ${overriding}VALUES `;
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const tuples = batch.map((_, r) => `(${columns.map((column, i) => `$${r * columns.length + i + 1}::${types.get(column)}`).join(', ')})`);
    await client.query(insert + tuples.join(', '), batch.flat());
    copied += batch.length;
    batch = [];
  };
  const rows = source.prepare(`SELECT ${columns.map(quote).join(', ')} FROM ${quote(table.name)}`).raw().iterate() as Iterable<unknown[]>;
  for (const row of rows) {
    batch.push(columns.map((column, i) => converted(table, row, column, row[i], types.get(column)!)));
    if (batch.length === perStatement) await flush();
  }
  await flush();
  for (const column of identity) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${quote(column)}), 0) + 1, false) FROM ${quote(table.name)}`, [quote(table.name), column],
    );
  }
  return copied;
}

/** A SQLite value as its PostgreSQL column takes it; refuses U+0000, which PostgreSQL stores in no text (22021). */
function converted(table: SourceTable, row: unknown[], column: string, value: unknown, type: string): unknown {
  if (value === null) return null;
  let result = value;
  let checked = value;
  if (type === 'boolean') result = checked = value === 1;
  else if (type.endsWith('[]') || type === 'jsonb' || type === 'json') {
    checked = JSON.parse(value as string);
    if (type.endsWith('[]')) result = checked;
  }
  if (holdsNul(checked)) {
    const where = table.key.map((name) => `${name} ${JSON.stringify(row[table.columns.indexOf(name)])}`).join(', ');
    throw new CannotCopy(
      `${table.name}.${column} of the row with ${where} holds U+0000, which PostgreSQL cannot store: change or remove it in SQLite first`,
    );
  }
  return result;
}

const holdsNul = (value: unknown): boolean =>
  typeof value === 'string' ? value.includes('\0')
    : Array.isArray(value) ? value.some(holdsNul)
      : typeof value === 'object' && value !== null ? Object.entries(value).some(([name, inner]) => name.includes('\0') || holdsNul(inner))
        : false;

/** A name of the schema as an SQL identifier (SQLite's and PostgreSQL's quoting agree). */
const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** PostgreSQL's refusal of a value (a constraint, a trigger): one line, as the copy was rolled back. */
function refusal(error: unknown): unknown {
  if (error instanceof CannotCopy || error instanceof StoreUnavailable || error instanceof NoDatabase) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') return error;
  return new CannotCopy(`PostgreSQL refused the copy: ${String(message)} (${code}); nothing was copied`);
}
