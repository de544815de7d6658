/**
 * Web origins as the embed rules define them: `https://host[:port]`, or
 * `http://localhost[:port]` for development, written exactly as a browser's `location.origin` writes
 * it. Matching is then plain string equality: scheme, host and port all count, and `localhost` and
 * `127.0.0.1` are different origins.
 *
 * An origin is only worth registering if the frame's `Content-Security-Policy: frame-ancestors
 * <origin>` can name it, since that is what lets the page show the map. Chromium parses a source as
 * CSP's host-part — letters, digits and "-" in dot-separated labels, an optional final dot — and
 * ignores one it cannot parse, leaving `frame-ancestors 'none'`: a host with "_" or an IPv6 address in
 * brackets would be stored and then never show a map. A non-ASCII character makes it drop the whole
 * directive, which is why a host is only ever accepted in its punycode (`xn--`) form.
 */
import { LocError, describeValue } from '../errors.ts';

/** A host `frame-ancestors` can name: DNS labels of letters, digits and "-" (an IPv4 address is one too). */
const HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?$/;

/** What the embed refuses in an origin: why, and what was probably meant when it can tell. */
interface Refusal {
  why: string;
  hint?: string;
}

const LOOPBACK = /^127\.\d+\.\d+\.\d+$|^\[::1\]$/;
/** Why a host that the URL parser takes is still refused. */
const NO_FRAME = "browsers cannot match it in the map frame's frame-ancestors, so no page there could show the map";

function refusal(input: unknown): Refusal | null {
  if (typeof input !== 'string' || input.length === 0) return { why: 'must be an origin such as "https://shop.example"' };
  if (input.length > 300) return { why: 'must be at most 300 characters' };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { why: 'must be an origin such as "https://shop.example" (scheme, host and optional port)' };
  }
  // The URL parser takes "*" as a host character, but an origin is matched by string equality:
  // "https://*.example" would be stored and then never match any page.
  if (url.hostname.includes('*')) {
    return {
      why: 'must be one exact origin such as "https://shop.example" (https, or http://localhost:<port>), without a wildcard',
      hint: '; register each origin your pages are served from.',
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { why: 'must use https' };
  // A development server on a loopback address: the page can be opened as localhost instead.
  const localhost = `${url.protocol}//localhost${url.port ? `:${url.port}` : ''}`;
  const loopback = LOOPBACK.test(url.hostname);
  if (url.protocol === 'http:' && url.hostname !== 'localhost') {
    const hint = loopback ? `; did you mean ${JSON.stringify(localhost)}? Open your page as ${localhost} too: ${url.hostname} and localhost are different origins.` : undefined;
    return { why: 'must use https (plain http is accepted only for http://localhost:<port>)', hint };
  }
  if (url.username || url.password) return { why: 'must not contain credentials' };
  if (url.hostname.startsWith('[')) {
    const instead = loopback ? `Open your page as ${localhost} instead, and register that.` : 'Serve the page under a host name, and register that.';
    return { why: 'must not be an IPv6 address', hint: `; ${NO_FRAME}. ${instead}` };
  }
  if (url.hostname.includes('_')) return { why: 'must not have "_" in its host name', hint: `; ${NO_FRAME}. Serve the page under a host name without "_".` };
  if (!HOST.test(url.hostname)) return { why: 'must have a host name of letters, digits, "-" and "." or an IPv4 address' };
  const origin = url.origin;
  if (input !== origin) {
    const hint = `; did you mean ${JSON.stringify(origin)}?`;
    if (url.pathname !== '/' || url.search || url.hash || input.endsWith('/')) return { why: 'must not have a path, query or trailing slash', hint };
    if (/[^\x00-\x7f]/.test(input) && url.hostname.includes('xn--')) {
      return { why: 'must write an international domain name as a browser does, in its punycode (xn--) form', hint };
    }
    return { why: 'must be written as a browser writes it (lower case, no default port)', hint };
  }
  return null;
}

/**
 * Checks that `input` is an origin the embed accepts and returns it. Throws `validation_error` for
 * `field` with a message that says what is wrong and, when it can, what was probably meant.
 */
export function checkOrigin(input: unknown, field = 'origin'): string {
  const refused = refusal(input);
  if (refused !== null) throw new LocError('validation_error', `${field} ${refused.why}, received ${describeValue(input)}${refused.hint ?? '.'}`, field);
  return input as string;
}

/**
 * Why the embed refuses an origin ("must …", with the hint of checkOrigin's message), or null when it
 * accepts it: for origins stored under older rules, which stay on their key until removed.
 */
export function originProblem(origin: string): string | null {
  const refused = refusal(origin);
  return refused === null ? null : `${refused.why}${refused.hint ?? '.'}`;
}

/**
 * Whether `origin` is a page on this machine, written as a browser writes it: http or https on
 * `localhost`, a 127.x.x.x address or `[::1]`, any port. Such a page cannot be anyone else's, which is
 * why `loc mock` lets any test key use it without registering it.
 */
export function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && (url.hostname === 'localhost' || LOOPBACK.test(url.hostname));
}
