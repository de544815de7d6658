/**
 * HTTP/1.1 over a bare TCP socket, for hostile requests: the bytes are sent exactly as given — header
 * names twice, control characters, paths no URL class would build — which `fetch` and `http.request`
 * refuse to send. One request per connection (`Connection: close`); the answer is read until the
 * server closes, and a request not answered within the timeout is an error: a hang.
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export interface RawRequest {
  method: string;
  /** Sent as is on the request line. */
  target: string;
  /** In order, repeats allowed; `Host` and `Connection: close` are added (Host unless `omitHost`). */
  headers: [string, string][];
  body?: Buffer;
  /** Leave out the Host header (HTTP/1.1 requires it). */
  omitHost?: boolean;
}

/** Serialises a request; the caller's bytes are used as they are (latin1 for the head). */
export function serialize(request: RawRequest, port: number): Buffer {
  const lines = [`${request.method} ${request.target} HTTP/1.1`];
  if (!request.omitHost) lines.push(`Host: 127.0.0.1:${port}`);
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  lines.push('Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), request.body ?? Buffer.alloc(0)]);
}

/** Sends one request and parses the answer; rejects when none arrives within `timeoutMs`. */
export function rawRequest(port: number, request: RawRequest, timeoutMs = 5000): Promise<RawResponse> {
  const bytes = serialize(request, port);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${request.method} ${request.target.slice(0, 120)}`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may answer (413, 400) and close before reading the whole body: writing the rest then
    // fails with EPIPE or ECONNRESET, and what it answered is still in `chunks`.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const data = Buffer.concat(chunks);
      try {
        resolve(parseResponse(data, request.method === 'HEAD'));
      } catch (error) {
        reject(new Error(`${(error as Error).message} for ${request.method} ${request.target.slice(0, 120)}: ${JSON.stringify(data.toString('latin1').slice(0, 300))}`));
      }
    });
    socket.end(bytes);
  });
}

/** Parses one response (after any 1xx interim ones); the body by Content-Length or chunked encoding. */
export function parseResponse(data: Buffer, head = false): RawResponse {
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(rest.length === 0 ? 'the server closed without answering' : 'an incomplete response head');
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (match === null) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    rest = rest.subarray(end + 4);
    if (status >= 100 && status < 200) continue;
    if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) return { status, headers, body: dechunk(rest) };
    const length = headers['content-length'];
    if (length === undefined) return { status, headers, body: rest };
    if (rest.length < Number(length)) throw new Error(`a body of ${rest.length} bytes where Content-Length says ${length}`);
    return { status, headers, body: rest.subarray(0, Number(length)) };
  }
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) throw new Error('a truncated chunked body');
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('a malformed chunk size');
    if (size === 0) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}
