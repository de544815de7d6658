/**
 * SQLite's statements as spans: better-sqlite3 has no OpenTelemetry instrumentation, and runs each
 * statement synchronously in this thread, so a span of loc's own (spans.ts) around each run, get and
 * all measures it whole. Made only with traces on: the database's `prepare` is replaced then, and
 * otherwise left as it is, so that a service that does not trace pays nothing per statement.
 */
import type Database from 'better-sqlite3';
import { inSpan, tracingOn } from '../../spans.ts';

/** The methods of a statement that run it to its end; `iterate` hands rows out later, outside any span. */
const RUNS = ['run', 'get', 'all'] as const;

/** From now on, each statement `db` prepares makes a span each time it runs — with traces on. */
export function traceStatements(db: Database.Database): void {
  if (!tracingOn()) return;
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => traced(prepare(source))) as typeof db.prepare;
}

function traced(statement: Database.Statement): Database.Statement {
  const operation = /^\s*(\w+)/.exec(statement.source)?.[1].toUpperCase() ?? 'SQL';
  // The statement's text alone: its values are what the request gave (the same rule as PostgreSQL's).
  const attributes = { 'db.system.name': 'sqlite', 'db.operation.name': operation, 'db.query.text': statement.source };
  for (const method of RUNS) {
    const run = statement[method].bind(statement) as (...values: unknown[]) => unknown;
    Object.defineProperty(statement, method, { value: (...values: unknown[]) => inSpan(operation, attributes, () => run(...values)) });
  }
  return statement;
}
