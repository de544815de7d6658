/**
 * loc-js/react — `<LocPicker>`: the map picker as a React component. It loads the service's script
 * with `loadLoc`, gets a session token (the `sessionToken` prop, or the integrator's `getSession`),
 * and mounts one map into its own `<div>`; its `ref` is the mount's `LocHandle`.
 *
 * Where the React wrappers of Stripe and Plaid fall short, it holds:
 * - One mount, one session, under `<StrictMode>` too. StrictMode runs an effect, its cleanup and the
 *   effect again on the same component; the cleanup only marks the mount as leaving and a microtask
 *   destroys it, so the second run finds it, still wanted, and keeps it: `getSession` is asked once.
 * - No leftover iframe: a real unmount destroys the mount; a `loadLoc` or `getSession` that settles
 *   after it mounts nothing; no callback runs once the component has left.
 * - Callbacks are read from the latest props when they fire: a new `onSelect` each render remounts
 *   nothing. `style` switches with `setStyle`; `center` and `zoom` are the view the map opens with,
 *   as react-leaflet's `MapContainer` takes them (move it with `ref.current.setView`), and `value`
 *   the code it opens on: a page that passes back what `onSelect` gave would otherwise remount the
 *   map at each choice (change the choice with `ref.current.select`); a change of
 *   what the map is made with — `baseUrl`, `sessionToken`, `height`, `confirm`, `loadTimeout`,
 *   `title`, `search`, `locale`, `appearance` (compared by value: a new object with the same theme
 *   and variables each render remounts nothing) — mounts it again.
 * - `getSession` renews the session before it expires (it is the mount's `getSessionToken`), and
 *   when the map reports `session_expired` all the same, mounts it once more with a fresh token.
 *
 * React is an optional peer dependency, 18 or later; only APIs React 18 has are used.
 */
import { createElement, forwardRef, useEffect, useImperativeHandle, useRef, useState, type AriaAttributes, type CSSProperties, type ForwardedRef } from 'react';
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
 * The props that are attributes of the `<div>` the map is mounted into: `id`, `className`, `data-*`
 * and `aria-*` as on any element, and `containerStyle` for its CSS (`style` is the map's style, as in
 * `LOC.mount`). They never reach `LOC.mount`.
 */
export interface LocPickerContainerProps extends AriaAttributes {
  id?: string;
  className?: string;
  /** CSS of the `<div>`. */
  containerStyle?: CSSProperties;
  [dataAttribute: `data-${string}`]: string | number | boolean | undefined;
}

/** The props of `<LocPicker>` besides the session. */
export type LocPickerBaseProps = LocPickerMapProps & LocPickerOwnProps & LocPickerContainerProps;

/**
 * The session: a `sessionToken` your page already has, or `getSession` to ask your server for one, or
 * both — the token for the first mount and `getSession` for renewal and expiry.
 */
export type LocPickerSessionProps = { sessionToken: string; getSession?: LocGetSession } | { sessionToken?: undefined; getSession: LocGetSession };

/** Every prop of `<LocPicker>`: the map's options, its own, its container's and the session's; no other. */
export type LocPickerProps = LocPickerBaseProps & LocPickerSessionProps;

/** The props a change of which mounts the map again: they are what the map is made with. */
const REMOUNT_ON = ['baseUrl', 'sessionToken', 'height', 'confirm', 'loadTimeout', 'title', 'search', 'locale', 'appearance'] as const;

/** One mount of this component's map, from loading the script to destroy. */
interface Mount {
  /** The props in REMOUNT_ON it was made with. */
  key: string;
  handle?: LocHandle;
  /** The map style it was last given, so that a style prop equal to it calls nothing. */
  style?: LocMountOptions['style'];
  /** The effect's cleanup ran: destroyed in a microtask unless the effect runs again (StrictMode). */
  leaving: boolean;
  /** Destroyed, or replaced by a mount with other props: it mounts nothing more. */
  stopped: boolean;
  /** A `session_expired` was answered with a new mount that has not been ready yet: the next is reported. */
  renewing: boolean;
}

/** The map picker: one map in a `<div>` of its own; `ref` is its `LocHandle` once mounted, else null. */
export const LocPicker = forwardRef(function LocPicker(props: LocPickerProps, ref: ForwardedRef<LocHandle>) {
  const element = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  const current = useRef<Mount>(undefined);
  const [handle, setHandle] = useState<LocHandle | null>(null);
  const key = JSON.stringify(REMOUNT_ON.map((name) => props[name]));

  // Before the effects below, which read it.
  useEffect(() => {
    latest.current = props;
  });

  useEffect(() => {
    const kept = current.current;
    if (kept?.key === key && !kept.stopped && kept.leaving) {
      kept.leaving = false;
      return leave(kept);
    }
    if (kept) stop(kept);
    const mount: Mount = (current.current = { key, leaving: false, stopped: false, renewing: false });
    startMount(mount, latest, element, setHandle);
    return leave(mount);
  }, [key]);

  useEffect(() => {
    const mount = current.current;
    if (mount?.handle && props.style && props.style !== mount.style) {
      mount.style = props.style;
      mount.handle.setStyle(props.style);
    }
  }, [props.style]);

  useImperativeHandle(ref, () => handle!, [handle]);

  return createElement('div', { ...containerAttributes(props), ref: element, style: props.containerStyle });

  /** The cleanup of the mount effect: destroy `mount` after StrictMode's run of the effect again, unless that run kept it. */
  function leave(mount: Mount) {
    return () => {
      mount.leaving = true;
      queueMicrotask(() => mount.leaving && stop(mount));
    };
  }

  function stop(mount: Mount) {
    if (mount.stopped) return;
    mount.stopped = true;
    mount.handle?.destroy();
    setHandle(null);
  }
});

/**
 * Loads the script and a session token, then mounts `mount`'s map into `element` with the latest props;
 * a `session_expired` that `getSession` can answer mounts it again with a fresh token.
 */
function startMount(mount: Mount, latest: { readonly current: LocPickerProps }, element: { readonly current: HTMLDivElement | null }, setHandle: (handle: LocHandle) => void) {
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

/** Whether a prop is an attribute of the container (LocPickerContainerProps), not an option of the map. */
const isContainerAttribute = (name: string) => name === 'id' || name === 'className' || /^(data|aria)-/.test(name);

/** The container's attributes among the props, as React takes them on a `<div>`. */
function containerAttributes(props: LocPickerProps): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props).filter(([name]) => isContainerAttribute(name)));
}

/**
 * The props that go to `LOC.mount` as they are: the map's options. Any other prop a page passes (the
 * types refuse it; plain JavaScript does not) goes too, so that the loader names it, as it names a
 * misspelt option.
 */
function mapOptions({ baseUrl, sessionToken, getSession, onLoadError, containerStyle, onReady, onSelect, onPreview, onClear, onError, ...rest }: LocPickerProps) {
  return Object.fromEntries(Object.entries(rest).filter(([name]) => !isContainerAttribute(name))) as LocPickerMapProps;
}

/** A token from `getSession`, or a rejection that says it is missing or what went wrong. */
function askSession(getSession: LocGetSession | undefined): Promise<string> {
  if (!getSession) return Promise.reject(new Error('LocPicker: give it a sessionToken or a getSession function that returns one; it has neither.'));
  return Promise.resolve().then(getSession);
}
