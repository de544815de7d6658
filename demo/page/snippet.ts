/**
 * The code an integrator would write for the options on the demo page: the script tag and the
 * `LOC.mount` call, with only the options that differ from their defaults.
 */
import type { LocStyle, LocTheme } from '../../src/embed/public-types.ts';
import { MOUNT_DEFAULTS } from './mount-options.ts';

export interface SnippetOptions {
  /** The loc service as browsers reach it. */
  apiUrl: string;
  height: string;
  center: { lat: number; lng: number };
  zoom: number;
  style: LocStyle;
  confirm: boolean;
  /** Renew sessions with `getSessionToken` rather than remounting on expiry. */
  renew: boolean;
  /**
   * The frame's accessible name, when the designer typed one. Without it the demo still names its
   * map (so the page's six maps differ), but that name is the demo's, not code to copy: left out.
   */
  title?: string;
  /** The frame's language, when the designer chose one; without it, the page's. */
  locale?: string;
  theme: LocTheme;
  /** `appearance.variables.colorPrimary`, when the designer typed one. */
  colorPrimary?: string;
}

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function integratorSnippet(options: SnippetOptions): string {
  const lines = ['    sessionToken: session.session_token,'];
  if (options.height !== MOUNT_DEFAULTS.height) lines.push(`    height: ${quote(options.height)},`);
  if (options.center.lat !== MOUNT_DEFAULTS.center.lat || options.center.lng !== MOUNT_DEFAULTS.center.lng) {
    lines.push(`    center: { lat: ${options.center.lat}, lng: ${options.center.lng} },`);
  }
  if (options.zoom !== MOUNT_DEFAULTS.zoom) lines.push(`    zoom: ${options.zoom},`);
  if (options.style !== MOUNT_DEFAULTS.style) lines.push(`    style: ${quote(options.style)},`);
  if (options.confirm !== MOUNT_DEFAULTS.confirm) lines.push(`    confirm: ${options.confirm},`);
  if (options.title !== undefined) lines.push(`    title: ${quote(options.title)},`);
  if (options.locale !== undefined) lines.push(`    locale: ${quote(options.locale)},`);
  const appearance = [
    ...(options.theme === MOUNT_DEFAULTS.theme ? [] : [`theme: ${quote(options.theme)}`]),
    ...(options.colorPrimary === undefined ? [] : [`variables: { colorPrimary: ${quote(options.colorPrimary)} }`]),
  ];
  if (appearance.length) lines.push(`    appearance: { ${appearance.join(', ')} },`);
  if (options.renew) lines.push('    getSessionToken: () => createSession().then((next) => next.session_token),');
  lines.push(
    '    onSelect(result) {',
    '      // result.loc_code, result.latitude, result.longitude, result.address, result.cell …',
    '    },',
    '    onError(error) {',
    options.renew
      ? '      console.warn(error.code, error.message); // renewal keeps the session alive'
      : "      if (error.code === 'session_expired') createSession().then(mount); // a fresh session, mounted again",
    '    },',
    '    onReady(info) {},',
  );
  return [
    '<div id="map"></div>',
    `<script src="${options.apiUrl}/embed/loc-embed.js"></script>`,
    '<script>',
    '// createSession(): ask your own server, which calls POST /v1/embed/sessions with your API key.',
    'function mount(session) {',
    "  return LOC.mount('#map', {",
    ...lines,
    '  });',
    '}',
    'createSession().then(mount);',
    '</script>',
  ].join('\n');
}
