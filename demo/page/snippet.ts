/**
 * The code an integrator would write for the options on the demo page: the script tag and the
 * `LOC.mount` call, with only the options that differ from their defaults.
 */
import type { LocAppearance, LocStyle, LocTheme } from '../../src/embed/public-types.ts';
import { MOUNT_DEFAULTS, type PlaygroundVariable } from './mount-options.ts';

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
   * map (so the page's maps differ), but that name is the demo's, not code to copy: left out.
   */
  title?: string;
  /** The search box over the map. */
  search: boolean;
  /** A code the map opens on, shown as chosen (an edit page). */
  value?: string;
  /** The area the session was created with: the server's request, not a mount option. */
  area?: SessionArea;
  /** The map's language; none for the page's. */
  locale?: string;
  theme: LocTheme;
  /** The appearance variables set, none at the theme's. */
  variables: Partial<Record<PlaygroundVariable, string>>;
}

/** `appearance` for these options: none at the default theme without variables, as the snippet writes it. */
export function appearanceOf(options: Pick<SnippetOptions, 'theme' | 'variables'>): LocAppearance | undefined {
  const variables = Object.keys(options.variables).length > 0 ? { variables: options.variables } : {};
  if (options.theme === MOUNT_DEFAULTS.theme && !variables.variables) return undefined;
  return { ...(options.theme === MOUNT_DEFAULTS.theme ? {} : { theme: options.theme }), ...variables };
}

/** What `POST /v1/embed/sessions` takes to limit a session to an area (api.md, Areas). */
export interface SessionArea {
  countries?: string[];
  bounds?: { south?: number; west?: number; north?: number; east?: number };
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
  if (options.search !== MOUNT_DEFAULTS.search) lines.push(`    search: ${options.search},`);
  if (options.value !== undefined) lines.push(`    value: ${quote(options.value)},`);
  if (options.locale !== undefined) lines.push(`    locale: ${quote(options.locale)},`);
  const appearance = appearanceOf(options);
  if (appearance) {
    const variables = Object.entries(appearance.variables ?? {}).map(([name, value]) => `${name}: ${quote(value)}`);
    lines.push(
      '    appearance: {',
      ...(appearance.theme ? [`      theme: ${quote(appearance.theme)},`] : []),
      ...(variables.length > 0 ? [`      variables: { ${variables.join(', ')} },`] : []),
      '    },',
    );
  }
  if (options.renew) lines.push('    getSessionToken: () => createSession().then((next) => next.session_token),');
  lines.push(
    '    onSelect(result) {',
    '      // result.loc_code, result.latitude, result.longitude, result.address, result.cell …',
    '    },',
    // A preview comes only with confirm: true; a clear from the visitor's Escape either way.
    ...(options.confirm ? ['    onPreview(result) {', '      // shown to the visitor, not chosen yet: nothing is saved', '    },'] : []),
    '    onClear() {',
    '      // the visitor removed the cell (Escape): forget its code',
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
    ...(options.area ? [`// For this map, the request also sends the session's area: ${JSON.stringify(options.area)}.`] : []),
    'function mount(session) {',
    "  return LOC.mount('#map', {",
    ...lines,
    '  });',
    '}',
    'createSession().then(mount);',
    '</script>',
  ].join('\n');
}
