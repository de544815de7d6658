/**
 * What `<loc-picker>` mounts with: its attributes read as `LOC.mount` options, and its session asked
 * of the page's `getSessionToken` or of the integrator's own endpoint. Attributes are only parsed here — a number or a point from text —
 * and judged by `LOC.mount` itself, whose messages name the value (options.ts).
 */
import type { LocAppearance, LocMountOptions } from './public-types.ts';

/** The attributes that are mount options as they are, by the option's name. */
export const OPTION_ATTRIBUTES: Record<string, keyof LocMountOptions> = {
  height: 'height',
  center: 'center',
  zoom: 'zoom',
  'map-style': 'style',
  locale: 'locale',
  search: 'search',
  confirm: 'confirm',
  'map-title': 'title',
  'load-timeout': 'loadTimeout',
};

/** Text that is a number becomes it; anything else stays text, for `LOC.mount` to name in its refusal. */
const numberIn = (text: string): number | string => (text.trim() !== '' && Number.isFinite(+text) ? +text : text);

/** How each option's attribute text is read; the others are text. */
const PARSE: Partial<Record<keyof LocMountOptions, (text: string) => unknown>> = {
  zoom: numberIn,
  loadTimeout: numberIn,
  // `"48.8584,2.2945"`, as a map link writes a point.
  center: (text) => {
    const parts = text.split(',').map(numberIn);
    return parts.length === 2 && parts.every((part) => typeof part === 'number') ? parts : text;
  },
  // Present means on, as a boolean attribute does; only `"false"` turns the option off.
  search: (text) => text !== 'false',
  confirm: (text) => text !== 'false',
};

/** The map options `element`'s attributes (and its `appearance` property) give. */
export function attributeOptions(element: Element, appearance: LocAppearance | undefined): Partial<LocMountOptions> {
  const options: Record<string, unknown> = {};
  for (const [attribute, option] of Object.entries(OPTION_ATTRIBUTES)) {
    const text = element.getAttribute(attribute);
    if (text !== null) options[option] = PARSE[option]?.(text) ?? text;
  }
  const theme = element.getAttribute('theme');
  if (theme !== null || appearance) options.appearance = { ...(theme !== null && { theme }), ...appearance };
  return options;
}

/**
 * A session token from the integrator's endpoint: a same-origin POST, with the page's cookies, whose
 * JSON answer holds it as the API's own session response does (`session_token`, passed through) or as
 * a page's code would name it (`sessionToken`).
 */
export async function askSessionUrl(url: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } });
  const body = (await response.json().catch(() => null)) as { session_token?: unknown; sessionToken?: unknown } | null;
  const token = body?.session_token ?? body?.sessionToken;
  if (!response.ok || typeof token !== 'string') {
    throw new Error(`<loc-picker>: POST ${url} must answer 200 with JSON holding session_token (the API's session response, passed through) or sessionToken; it answered ${response.status}${response.ok ? ' without either' : ''}.`);
  }
  return token;
}

/** How the field asks for a new session: its `getSessionToken` property first, else `session-url`; null for neither. */
export function sessionAsker(getSessionToken: LocMountOptions['getSessionToken'], url: string | null): (() => Promise<string>) | null {
  if (getSessionToken) return () => Promise.resolve().then(getSessionToken);
  return url ? () => askSessionUrl(url) : null;
}
