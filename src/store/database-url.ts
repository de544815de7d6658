/**
 * A PostgreSQL URL as messages and logs may show it: the configuration's checks, the start's failures
 * and the store's. Apart from postgres-pool.ts so that naming the database does not load the driver.
 */

/** `url` fit for messages and logs: the password replaced, in a URL that does not parse too. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/**
 * `url` without its password, for a command line the operator may copy (`pg_dump …`): the password
 * then comes from PGPASSFILE or a prompt, never from a message or a shell's history.
 */
export function urlWithoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.href;
}
