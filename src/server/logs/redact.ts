/**
 * Redaction of secrets before anything is logged. Keys and tokens belong in headers, which are never
 * logged; but a client may put one anywhere else — a query string or a path, percent-encoded or not,
 * or a value that an error message quotes — and the log must not keep it wherever it lands. So a URL
 * is redacted as the server reads it, decoded, and every finished log line is searched once more.
 *
 * What counts as a secret: anything shaped like an API key (`loc_` and at least 8 more characters), a
 * session token (`<sid>.<secret>`, 16 or more base64url characters, a dot, 32 or more), or a secret
 * on its own — a key without its `loc_`, a token's secret without its public sid (which the frame
 * URLs log): a run of 40 or more base64url characters with an upper-case letter among them. 32 random
 * bytes are 43 such characters, without an upper-case letter once in five billion; a host name, a
 * hexadecimal digest or a snake_case name of that length is lower case, and stays readable.
 */

/** Query parameters whose values are secrets whatever they look like. */
const SECRET_PARAM = /token|key|secret|auth|password/i;

export const REDACTED = '[redacted]';

/** The characters of a run that may hold a secret: base64url, and the dot of a session token. */
const IN_RUN = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.') IN_RUN[char.charCodeAt(0)] = 1;

/** Shorter runs hold no secret: `loc_` and 8 is the shortest shape. */
const MIN_RUN = 12;
const KEY = /loc_[A-Za-z0-9_-]{8}/;
const UPPER = /[A-Z]/;

/** Whether a run of IN_RUN characters holds one of the secret shapes. */
function runHoldsSecret(run: string): boolean {
  const parts = run.split('.');
  for (let i = 0; i < parts.length; i++) {
    const length = parts[i].length;
    if ((length >= 40 && UPPER.test(parts[i])) || (length >= 16 && i + 1 < parts.length && parts[i + 1].length >= 32)) return true;
  }
  return KEY.test(run);
}

/**
 * The bounds of the first run of `text` from `from` that holds a secret, or null. In JSON text
 * (`json`), escapes (`\n`, `\u0041`) are passed over whole, so that a replacement never splits one.
 *
 * A loop over character codes rather than a regular expression of the shapes: on a 250-byte log line
 * the expression (whose open-ended counts backtrack at every character) cost about ten times more.
 */
function findSecret(text: string, from: number, json: boolean): [number, number] | null {
  let start = -1;
  // Whether the run so far has a dot or a `loc_`: most runs of a line (ids, times) have neither, are
  // shorter than 40, and are passed over without being cut out of the line.
  let marked = false;
  for (let i = from; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    if (code < 128 && IN_RUN[code] === 1) {
      if (start < 0) {
        start = i;
        marked = false;
      }
      if (code === 0x2e || (code === 0x5f && i - start >= 3 && text.startsWith('loc', i - 3))) marked = true;
      continue;
    }
    const length = i - start;
    if (start >= 0 && length >= MIN_RUN && (marked || length >= 40) && runHoldsSecret(text.slice(start, i))) return [start, i];
    start = -1;
    if (json && code === 0x5c) i += text.charCodeAt(i + 1) === 0x75 ? 5 : 1;
  }
  return null;
}

/** Rounds of percent-decoding a URL part gets: a secret encoded twice still reads as one to a person who decodes it. */
const DECODE_ROUNDS = 3;

/** `part` percent-decoded as often as that changes it (up to DECODE_ROUNDS), or as far as it decodes. */
function decoded(part: string): string {
  let text = part;
  for (let round = 0; round < DECODE_ROUNDS && text.includes('%'); round++) {
    try {
      const next = decodeURIComponent(text);
      if (next === text) break;
      text = next;
    } catch {
      break;
    }
  }
  return text;
}

/** A path segment, query name or query value: itself, or REDACTED when, decoded, it holds a secret. */
const redactPart = (part: string): string => (findSecret(decoded(part), 0, false) === null ? part : REDACTED);

/**
 * A request URL to log: each path segment and each query name and value is decoded as the server
 * decodes it, and replaced whole when it holds a secret; a query parameter named like a secret loses
 * its value whatever it is.
 */
export function redactUrl(url: string): string {
  // Most URLs: nothing to decode, no query, nothing secret-shaped.
  if (!url.includes('%') && !url.includes('?') && findSecret(url, 0, false) === null) return url;
  const question = url.indexOf('?');
  const path = (question < 0 ? url : url.slice(0, question)).split('/').map(redactPart).join('/');
  if (question < 0) return path;
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return redactPart(pair);
      const name = pair.slice(0, eq);
      return SECRET_PARAM.test(decoded(name)) ? `${redactPart(name)}=${REDACTED}` : `${redactPart(name)}=${redactPart(pair.slice(eq + 1))}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/**
 * A finished JSON log line with every run that holds a secret replaced, whichever field it is in (a
 * message that quotes a value, an error, a header someone chose to log). A run is made of base64url
 * characters and "." only, so a replacement stays inside one JSON string and the line stays JSON.
 */
export function redactLine(line: string): string {
  let found = findSecret(line, 0, true);
  if (found === null) return line;
  let redacted = '';
  let copied = 0;
  while (found !== null) {
    redacted += `${line.slice(copied, found[0])}${REDACTED}`;
    copied = found[1];
    found = findSecret(line, copied, true);
  }
  return redacted + line.slice(copied);
}
