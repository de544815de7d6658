/**
 * The frame page: the HTML of `GET /embed/frame/{sid}`, filled from the template in
 * `iframe-app/frame.html` with the session's config, and the headers it must be sent with — the CSP
 * that lets only the session's origin embed it, and a referrer policy that keeps the frame URL from
 * every third party.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { escapeHtml } from '../../escape-html.ts';
import { embedDir } from './files.ts';
import type { FrameConfig } from '../../embed/frame-contract.ts';
import type { StyleLayers } from '../../embed/frame-contract.ts';
import { tileOrigins } from '../../tiles/styles.ts';

/** What the route knows about the session; `now` defaults to this server's clock. */
export interface FramePageInput {
  apiBase: string;
  origin: string;
  sid: string;
  expiresAt: Date | string;
  /** The stored hash of the session's secret (`EmbedSession.secretHash`); the page carries only its hash. */
  secretHash: string;
  /** Why the service refuses the session already, if it does (FrameConfig.refusal). */
  refusal?: FrameConfig['refusal'];
  /** Whether a test key made the session (FrameConfig.testMode). */
  testMode?: boolean;
  /** The box the view is kept in, from the session's area (session-area.ts `viewBounds`), null for none (FrameConfig.bounds). */
  bounds?: FrameConfig['bounds'] | null;
  styles: StyleLayers;
  now?: Date;
}

let template: string | undefined;

/** The built `frame.html`, read once. */
function builtTemplate(): string {
  return (template ??= readFileSync(`${embedDir()}frame.html`, 'utf8'));
}

/** The config the frame reads, in canonical form (no trailing slash, ISO dates). */
export function frameConfig(input: FramePageInput): FrameConfig {
  return {
    apiBase: input.apiBase.replace(/\/+$/, ''),
    origin: input.origin,
    sid: input.sid,
    expiresAt: new Date(input.expiresAt).toISOString(),
    now: (input.now ?? new Date()).toISOString(),
    styles: input.styles,
    tokenCheck: tokenCheck(input.secretHash),
    ...(input.refusal === undefined ? {} : { refusal: input.refusal }),
    ...(input.testMode ? { testMode: true } : {}),
    ...(input.bounds ? { bounds: input.bounds } : {}),
  };
}

/**
 * What the frame compares a token with: SHA-256 of the stored hash, as the frame computes it from the
 * token (SHA-256 of the secret, then of that hex). One more hash, so the page holds nothing that is in
 * the database.
 */
export function tokenCheck(secretHash: string): string {
  return createHash('sha256').update(secretHash).digest('hex');
}

/**
 * JSON that is safe inside `<script type="application/json">`: no `<` (so no `</script>` or `<!--`),
 * no `>` or `&`, and no U+2028/U+2029 — each written as its \u escape, which JSON.parse reads back.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}


/**
 * The frame page from `page`, the built `frame.html`. `assetVersion` (the assets plugin's content hash)
 * goes into the script and style URLs, so browsers may cache those for good and still pick up a new
 * build at once.
 */
export function renderFramePage(input: FramePageInput, assetVersion = '', page = builtTemplate()): string {
  const config = frameConfig(input);
  const fill: Record<string, string> = {
    assets: escapeHtml(`${config.apiBase}/embed`),
    version: escapeHtml(encodeURIComponent(assetVersion)),
    config: scriptSafeJson(config),
  };
  return page.replace(/\{\{(\w+)\}\}/g, (_, name: string) => fill[name]);
}

/**
 * The headers of the frame page. Only the session's origin may embed it (frame-ancestors); it runs
 * only the service's own script and styles, talks only to the API, and shows images only from the
 * service and the configured tile servers.
 */
export function frameHeaders(config: { origin: string; apiBase: string; styles: StyleLayers }): Record<string, string> {
  // The origin lands in a header: anything but a bare origin could smuggle in a directive.
  if (!/^https?:\/\/[^/\s;,]+$/.test(config.origin) || new URL(config.origin).origin !== config.origin) {
    throw new TypeError(`The session origin must be a bare origin such as "https://shop.example"; received ${JSON.stringify(config.origin)}.`);
  }
  const api = new URL(config.apiBase).origin;
  const csp = [
    "default-src 'none'",
    `script-src ${api}`,
    `style-src ${api}`,
    // data: only for Leaflet's blank GIF, which it sets to cancel tiles that scrolled out of view.
    `img-src 'self' data: ${[...new Set([api, ...tileOrigins(config.styles)])].join(' ')}`,
    `connect-src ${api}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${config.origin}`,
  ].join('; ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'permissions-policy': 'geolocation=(self), clipboard-write=(self), camera=(), microphone=(), payment=(), usb=()',
    // The page carries the session's config: never from a cache, never for another visitor.
    'cache-control': 'no-store',
    // What a cross-origin isolated page (COEP require-corp, for SharedArrayBuffer) asks of a frame it
    // embeds: a policy of its own and consent to be embedded cross-origin. `credentialless` rather
    // than require-corp, because tile servers send no Cross-Origin-Resource-Policy: their images then
    // load without cookies, which tiles never need. On any other page these change nothing.
    'cross-origin-embedder-policy': 'credentialless',
    'cross-origin-resource-policy': 'cross-origin',
  };
}
