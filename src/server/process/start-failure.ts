/**
 * Why a start could not go on, told to the operator in one line: what failed, why, and what to change.
 * `loc serve` prints the message after `error: ` and exits 1; a stack trace would only bury it.
 */

/** A start that cannot go on; the message is the whole line an operator needs. */
export class StartFailure extends Error {
  override readonly name = 'StartFailure';
}

/** Where the service could not listen, and the settings that choose that address, named in the hint. */
export interface ListenTarget {
  host: string;
  port: number;
  /** How to choose another port, e.g. `set PORT or --port`. */
  portSetting: string;
  /** How to choose another interface, e.g. `set HOST or --host`. */
  hostSetting: string;
}

/** `host:port`, with an IPv6 address in brackets as in a URL. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The one-line failure of a listen that Node refused, or the error itself when it is not a refusal
 * the operator can act on (a bug should keep its stack).
 */
export function listenFailure(error: unknown, target: ListenTarget): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `cannot listen on ${hostPort(target.host, target.port)}`;
  switch (code) {
    case 'EADDRINUSE':
      return new StartFailure(`${where}: the port is in use (${target.portSetting})`);
    case 'EACCES':
      return new StartFailure(`${where}: permission denied; ports below 1024 need privileges (${target.portSetting})`);
    case 'EADDRNOTAVAIL':
      return new StartFailure(`${where}: that address is not one of this machine's (${target.hostSetting})`);
    case 'ENOTFOUND':
      return new StartFailure(`${where}: the host name does not resolve (${target.hostSetting})`);
    case 'EAI_AGAIN':
      return new StartFailure(`${where}: the host name could not be looked up, the name server did not answer (${target.hostSetting})`);
    default:
      return error;
  }
}
