/**
 * The few HTML pages the service serves itself (the share page, the API docs): escaping, a shared
 * shell with its stylesheet, and a strict Content-Security-Policy. Pages carry no third-party script;
 * an inline script is allowed by its hash, never by 'unsafe-inline'.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../../escape-html.ts';

export { escapeHtml };

/** Backticks as <code>, the rest escaped: the docs' descriptions are written that way. */
export function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The CSP source that allows exactly this inline script. */
export function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
}

export interface PageOptions {
  title: string;
  /** Extra elements for <head> (meta tags), already escaped. */
  head?: string;
  /** The page body, already escaped. */
  body: string;
  /** An inline script, placed at the end of the body. */
  script?: string;
}

/** The pages' column: at most this wide, padding included, with this padding left and right. */
export const PAGE_MAX_WIDTH_PX = 860;
export const PAGE_PADDING_X_PX = 16;

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b57d0; --bg: #fff; --panel: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --accent: #6ea8fe; --bg: #0d1117; --panel: #151b23; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: ${PAGE_MAX_WIDTH_PX}px; margin: 0 auto; padding: 24px ${PAGE_PADDING_X_PX}px 48px; }
h1 { font-size: 2rem; margin: 0 0 4px; letter-spacing: .02em; }
h2 { margin-top: 2rem; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin-bottom: 4px; }
a { color: var(--accent); }
code, .code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { background: var(--panel); padding: 1px 4px; border-radius: 4px; }
.muted { color: var(--muted); }
.row { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid var(--line); background: var(--panel); color: var(--fg); cursor: pointer; }
button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.map { position: relative; width: 100%; margin: 16px 0; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; background: var(--panel); }
.map-view { position: absolute; inset: 0; overflow: hidden; }
.map-pane { position: absolute; left: 50%; top: 50%; }
.map-pane img { position: absolute; max-width: none; user-select: none; }
.map-cell { position: absolute; border: 2px solid #d93025; background: rgba(217, 48, 37, .2); box-shadow: 0 0 0 1px #fff; }
.map-attribution { position: absolute; right: 0; bottom: 0; margin: 0; padding: 0 6px; font-size: 12px; color: #333; background: rgba(255, 255, 255, .85); border-top-left-radius: 4px; }
.map-attribution a { color: #0b57d0; }
.map-note { margin: 16px 0; padding: 12px 16px; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); }
ul.links { list-style: none; padding: 0; display: flex; gap: 16px; flex-wrap: wrap; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: .95rem; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 4px 8px; vertical-align: top; }
/* On a phone a table of five columns is wider than the screen: it scrolls inside its box, not the page
   sideways, and its notes are not squeezed to a word a line. */
.table-scroll { overflow-x: auto; margin: 8px 0; }
.table-scroll > table { margin: 0; }
.table-scroll td:last-child { min-width: 14em; }
/* A name in the first column (a field, a header such as RateLimit-Remaining) is never broken at its hyphen. */
.table-scroll td:first-child code { white-space: nowrap; }
.table-scroll:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.method { font-weight: 700; font-family: ui-monospace, monospace; }
`;

/**
 * The service's icon, for browser tabs and bookmarks of its pages: a grid of 3 × 3 cells with the
 * centre one marked, as a code names one cell. Served at /favicon.svg (routes/meta.ts).
 */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="6" fill="#0b57d0"/>' +
  '<path d="M11.5 4v24M20.5 4v24M4 11.5h24M4 20.5h24" stroke="#fff" stroke-opacity=".55" stroke-width="1.5"/>' +
  '<rect x="12.25" y="12.25" width="7.5" height="7.5" fill="#fff"/></svg>';

/** A whole document. */
export function page(options: PageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
${options.head ?? ''}
<style>${STYLE}</style>
</head>
<body>
<main>
${options.body}
</main>
${options.script === undefined ? '' : `<script>${options.script}</script>`}
</body>
</html>
`;
}

/**
 * The policy of a page: nothing but its own inline style, when given its one inline script, and no
 * frames. Images from its own origin and data: URLs unless `images` names exactly the origins allowed.
 */
export function contentSecurityPolicy(options: { script?: string; images?: readonly string[] }): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src ${options.script === undefined ? "'none'" : scriptHash(options.script)}`,
    "frame-src 'none'",
    `img-src ${options.images === undefined ? "'self' data:" : options.images.length === 0 ? "'none'" : options.images.join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
