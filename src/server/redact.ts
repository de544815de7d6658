/**
 * Redaction of secrets in URLs before they are logged. Keys and tokens belong in headers, but a
 * client may paste one into a query string or a path; the log must not keep it either way.
 */

/** Query parameters whose values are secrets whatever they look like. */
const SECRET_PARAM = /token|key|secret|auth|password/i;

/**
 * Anything shaped like an API key, a session token (`<sid>.<secret>`), or a secret on its own — a key
 * without its `loc_`, a token's secret without its public sid (which the frame URLs log): 32 random
 * bytes are 43 base64url characters, and nothing else loc puts in a URL is that long.
 */
const SECRET_SHAPE = /loc_[A-Za-z0-9_-]{8,}|[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{32,}|[A-Za-z0-9_-]{40,}/g;

export const REDACTED = '[redacted]';

export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  const path = (question < 0 ? url : url.slice(0, question)).replace(SECRET_SHAPE, REDACTED);
  if (question < 0) return path;
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair.replace(SECRET_SHAPE, REDACTED);
      const name = pair.slice(0, eq);
      return SECRET_PARAM.test(decodeSafely(name)) ? `${name}=${REDACTED}` : `${name}=${pair.slice(eq + 1).replace(SECRET_SHAPE, REDACTED)}`;
    })
    .join('&');
  return `${path}?${query}`;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
