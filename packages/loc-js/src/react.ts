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
import type { LocHandle } from './embed.ts';
import { REMOUNT_ON, isContainerAttribute, newMount, startMount, stopMount, type LocPickerMapProps, type LocPickerOwnProps, type LocPickerSessionProps, type Mount } from './picker-mount.ts';

export type { LocGetSession, LocPickerMapProps, LocPickerOwnProps, LocPickerSessionProps } from './picker-mount.ts';

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

/** Every prop of `<LocPicker>`: the map's options, its own, its container's and the session's; no other. */
export type LocPickerProps = LocPickerBaseProps & LocPickerSessionProps;

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
    const mount: Mount = (current.current = newMount(key));
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
    stopMount(mount);
    setHandle(null);
  }
});

/** The container's attributes among the props, as React takes them on a `<div>`. */
function containerAttributes(props: LocPickerProps): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props).filter(([name]) => isContainerAttribute(name)));
}
