/**
 * The map of loc-js's picker components (`<LocPicker>` of loc-js/react and of loc-js/vue): their
 * props, which are the map's options, and one mount of their map, from loading the service's script
 * and a session to destroy. The frameworks differ in when they mount and destroy; what a mount does
 * in between — the script and the token together, the latest props at each callback, one remount
 * with a fresh session on `session_expired`, nothing heard once stopped — is one function below both.
 */
import { loadLoc } from './embed.ts';
import type { LocEmbedError, LocGlobal, LocHandle, LocMountOptions } from './embed.ts';

/** What `getSession` is: the integrator's call to its own server, which makes a session and gives its `session_token`. */
export type LocGetSession = NonNullable<LocMountOptions['getSessionToken']>;

/**
 * The props that are the map's options: every option of `LOC.mount`, with its name and type, but the
 * session's (the picker makes `sessionToken` and `getSessionToken` from its session props). These
 * alone go to `LOC.mount`.
 */
export type LocPickerMapProps = Omit<LocMountOptions, 'sessionToken' | 'getSessionToken'>;

/** The props that are the picker's own: where the map comes from, and what to do when it cannot come. */
export interface LocPickerOwnProps {
  /** The service's public base URL, as for `loadLoc`, e.g. `'https://loc.example'`. */
  baseUrl: string;
  /**
   * Called when the map could not be mounted at all: the script did not load, `getSession` failed
   * for the first token, or `LOC.mount` refused the options. Without it the error goes to
   * `reportError` (the console, and your error monitoring).
   */
  onLoadError?: (error: Error) => void;
}

/**
 * The session: a `sessionToken` your page already has, or `getSession` to ask your server for one, or
 * both — the token for the first mount and `getSession` for renewal and expiry.
 */
export type LocPickerSessionProps = { sessionToken: string; getSession?: LocGetSession } | { sessionToken?: undefined; getSession: LocGetSession };

/** What a component gives a mount, read at each use: the map's options, the picker's own props and the session's. */
export type MountProps = LocPickerMapProps & LocPickerOwnProps & { sessionToken?: string; getSession?: LocGetSession | undefined };

/** The props a change of which mounts the map again: they are what the map is made with. */
export const REMOUNT_ON = ['baseUrl', 'sessionToken', 'height', 'confirm', 'loadTimeout', 'title', 'search', 'locale', 'appearance'] as const;

/** One mount of a component's map, from loading the script to destroy. */
export interface Mount {
  /** The props in REMOUNT_ON it was made with. */
  key: string;
  handle?: LocHandle;
  /** The map style it was last given, so that a style prop equal to it calls nothing. */
  style?: LocMountOptions['style'];
  /** The component is leaving (React's effect cleanup ran): its callbacks are not heard. */
  leaving: boolean;
  /** Destroyed, or replaced by a mount with other props: it mounts nothing more. */
  stopped: boolean;
  /** A `session_expired` was answered with a new mount that has not been ready yet: the next is reported. */
  renewing: boolean;
}

/** A mount made with the props `key`, not started yet. */
export const newMount = (key: string): Mount => ({ key, leaving: false, stopped: false, renewing: false });

/** Destroys `mount`'s map; safe twice. */
export function stopMount(mount: Mount) {
  mount.stopped = true;
  mount.handle?.destroy();
}

/**
 * Loads the script and a session token, then mounts `mount`'s map into `element` with the latest props;
 * a `session_expired` that `getSession` can answer mounts it again with a fresh token.
 */
export function startMount(mount: Mount, latest: { readonly current: MountProps }, element: { readonly current: HTMLElement | null }, setHandle: (handle: LocHandle) => void) {
  const { baseUrl, sessionToken, getSession } = latest.current;
  const heard = (call: () => void) => !mount.leaving && !mount.stopped && call();
  const failed = (error: Error) => {
    if (mount.stopped) return;
    const { onLoadError } = latest.current;
    if (onLoadError) onLoadError(error);
    else if (typeof reportError === 'function') reportError(error);
    else console.error(error);
  };
  const into = (LOC: LocGlobal, token: string) => {
    if (mount.stopped) return;
    const options = mapOptions(latest.current);
    mount.style = options.style;
    mount.handle = LOC.mount(element.current!, {
      ...options,
      sessionToken: token,
      getSessionToken: latest.current.getSession && (() => latest.current.getSession!()),
      onReady: (info) => heard(() => ((mount.renewing = false), latest.current.onReady?.(info))),
      onSelect: (result) => heard(() => latest.current.onSelect?.(result)),
      onPreview: (result) => heard(() => latest.current.onPreview?.(result)),
      onClear: () => heard(() => latest.current.onClear?.()),
      onError: (error) => heard(() => expired(LOC, error) || latest.current.onError?.(error)),
    });
    setHandle(mount.handle);
  };
  /** Answers `session_expired` with a new mount, once until that one is ready; false when the error is the page's to hear. */
  const expired = (LOC: LocGlobal, error: LocEmbedError) => {
    const { getSession } = latest.current;
    if (error.code !== 'session_expired' || !getSession || mount.renewing) return false;
    mount.renewing = true;
    askSession(getSession)
      .then(
        (token) => into(LOC, token),
        (reason: unknown) => heard(() => latest.current.onError?.({ ...error, message: `${error.message} No new session: getSession failed: ${String(reason)}` })),
      )
      .catch(failed);
    return true;
  };
  Promise.all([loadLoc({ baseUrl }), sessionToken ?? askSession(getSession)])
    .then(([LOC, token]) => into(LOC, token))
    .catch(failed);
}

/** Whether a prop is an attribute of the component's container, not an option of the map. */
export const isContainerAttribute = (name: string) => name === 'id' || name === 'className' || /^(data|aria)-/.test(name);

/**
 * The props that go to `LOC.mount` as they are: the map's options. Any other prop a page passes (the
 * types refuse it; plain JavaScript does not) goes too, so that the loader names it, as it names a
 * misspelt option.
 */
function mapOptions({ baseUrl, sessionToken, getSession, onLoadError, containerStyle, onReady, onSelect, onPreview, onClear, onError, ...rest }: MountProps & { containerStyle?: unknown }) {
  return Object.fromEntries(Object.entries(rest).filter(([name]) => !isContainerAttribute(name))) as LocPickerMapProps;
}

/** A token from `getSession`, or a rejection that says it is missing or what went wrong. */
export function askSession(getSession: LocGetSession | undefined): Promise<string> {
  if (!getSession) return Promise.reject(new Error('LocPicker: give it a sessionToken or a getSession function that returns one; it has neither.'));
  return Promise.resolve().then(getSession);
}
