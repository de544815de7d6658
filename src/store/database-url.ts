/**
 * A PostgreSQL URL as messages and logs may show it. Apart from postgres-pool.ts so that naming the
 * database in a message does not load the driver: a service on SQLite never does.
 */

/** `url` fit for messages and logs: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(an unreadable URL)';
  }
}
