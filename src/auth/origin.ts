/**
 * Web origins as the embed rules define them (spec §4.1, §5.3): `https://host[:port]`, or
 * `http://localhost[:port]` for development, written exactly as a browser's `location.origin` writes
 * it. Matching is then plain string equality: scheme, host and port all count, and `localhost` and
 * `127.0.0.1` are different origins.
 */
import { LocError, describeValue } from '../errors.ts';

/**
 * A host a browser can show in `location.origin`, as the URL parser writes it (lower case, punycode):
 * DNS labels (`_` included, some intranets use it), an optional final dot, an IPv4 address, or an
 * IPv6 address in brackets. The parser lets through characters no host name has (`!`, `$`, `*`, …).
 */
const HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])$/;

/**
 * Checks that `input` is an origin the embed accepts and returns it. Throws `validation_error` for
 * `field` with a message that says what is wrong and, when it can, what was probably meant.
 */
export function checkOrigin(input: unknown, field = 'origin'): string {
  const fail = (why: string, hint = ''): never => {
    throw new LocError('validation_error', `${field} ${why}, received ${describeValue(input)}${hint || '.'}`, field);
  };
  if (typeof input !== 'string' || input.length === 0) return fail('must be an origin such as "https://shop.example"');
  if (input.length > 300) return fail('must be at most 300 characters');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return fail('must be an origin such as "https://shop.example" (scheme, host and optional port)');
  }
  // The URL parser takes "*" as a host character, but an origin is matched by string equality:
  // "https://*.example" would be stored and then never match any page.
  if (url.hostname.includes('*')) {
    return fail('must be one exact origin such as "https://shop.example" (https, or http://localhost:<port>), without a wildcard', '; register each origin your pages are served from.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('must use https');
  if (url.protocol === 'http:' && url.hostname !== 'localhost') {
    // A development server on a loopback address: the page can be opened as localhost instead.
    const loopback = /^127\.\d+\.\d+\.\d+$|^\[::1\]$/.test(url.hostname);
    const localhost = `http://localhost${url.port ? `:${url.port}` : ''}`;
    const hint = loopback ? `; did you mean ${JSON.stringify(localhost)}? Open your page as ${localhost} too: ${url.hostname} and localhost are different origins.` : '';
    return fail('must use https (plain http is accepted only for http://localhost:<port>)', hint);
  }
  if (url.username || url.password) return fail('must not contain credentials');
  if (!HOST.test(url.hostname)) return fail('must have a host name of letters, digits, "-" and "." or an IP address');
  const origin = url.origin;
  if (input !== origin) {
    const hint = `; did you mean ${JSON.stringify(origin)}?`;
    if (url.pathname !== '/' || url.search || url.hash || input.endsWith('/')) {
      return fail('must not have a path, query or trailing slash', hint);
    }
    return fail('must be written as a browser writes it (lower case, no default port)', hint);
  }
  return origin;
}
