/**
 * loc-js/vue — `LocPicker`: the map picker as a Vue 3 component. It loads the service's script with
 * `loadLoc`, gets a session token (the `sessionToken` prop, or the integrator's `getSession`), and
 * mounts one map into its own `<div>`; `v-model` is the code chosen, and a template ref is the map's
 * handle.
 *
 * What React's `<LocPicker>` holds, it holds (the mount itself is theirs in common, picker-mount.ts):
 * one mount and one session; the latest props at each callback; `style` switched with `setStyle`,
 * the view and the code the map opens with left alone, a change of what it is made with mounted again;
 * renewal before expiry and one remount with a fresh session on `session_expired`; no iframe and no
 * event once it has left. And what Vue asks besides:
 * - `v-model`: a visitor's choice or clear emits `update:modelValue`; a code the page sets is chosen
 *   on the map (`select`), `''` clears it; the code the picker emitted does not come back as a choice.
 * - `<KeepAlive>`: deactivated, its DOM leaves the document, which reloads any iframe: the map is
 *   destroyed, and activated it comes back with the session it had and the code chosen.
 * - Hot reload (a development build of Vue): a rerender changes nothing; a reload of a component
 *   around it makes a new picker, which takes over the session of the one it replaces.
 *
 * Vue is an optional peer dependency, 3.3 or later.
 */
import { defineComponent, h, nextTick, onActivated, onBeforeUnmount, onDeactivated, onMounted, watch, type StyleValue } from 'vue';
import type { LocEmbedError, LocHandle, LocReadyInfo, LocResolveResult, LocSelectResult } from './embed.ts';
import { REMOUNT_ON, askSession, newMount, startMount, stopMount, type LocPickerMapProps, type LocPickerOwnProps, type LocPickerSessionProps, type Mount, type MountProps } from './picker-mount.ts';

export type { LocGetSession, LocPickerMapProps, LocPickerOwnProps, LocPickerSessionProps } from './picker-mount.ts';

/** The map's options but its callbacks, which are the picker's events. */
export type LocPickerOptionProps = Omit<LocPickerMapProps, 'onReady' | 'onSelect' | 'onPreview' | 'onClear' | 'onError'>;

/** The props of `LocPicker` besides the session: the map's options, its own, `v-model`'s and its `<div>`'s CSS. */
export interface LocPickerBaseProps extends LocPickerOptionProps, LocPickerOwnProps {
  /** `v-model`: the code chosen, `''` for none. Set by the page, the map chooses it (or clears). */
  modelValue?: string;
  /** CSS of the `<div>` the map is mounted into (`style` is the map's style, as in `LOC.mount`). */
  containerStyle?: StyleValue;
}

/** Every prop of `LocPicker`; `class`, `id`, `data-*` and `aria-*` go to its `<div>`, as Vue passes attributes. */
export type LocPickerProps = LocPickerBaseProps & LocPickerSessionProps;

/** The events of `LocPicker`: the map's callbacks, and `v-model`'s. `load-error` is the prop `onLoadError`. */
export type LocPickerEmits = {
  ready: (info: LocReadyInfo) => void;
  select: (result: LocSelectResult) => void;
  preview: (result: LocResolveResult) => void;
  clear: () => void;
  error: (error: LocEmbedError) => void;
  'update:modelValue': (code: string) => void;
};

/**
 * What a template ref to `LocPicker` is: the handle of its map as it is now — a remount's after one —
 * and nothing of it while no map is mounted (before the first, and while `<KeepAlive>` keeps it aside).
 */
export type LocPickerHandle = Partial<LocHandle>;

/** The map picker: one map in a `<div>` of its own; `v-model` is the code chosen. */
export const LocPicker = defineComponent<LocPickerProps, LocPickerEmits>(
  (props, { emit, expose }) => {
    const box: { current: HTMLElement | null } = { current: null };
    let mount: Mount | undefined;
    /** The token the map holds from `getSession`: a remount after KeepAlive or a hot reload mounts with it. */
    let kept: string | undefined;
    /** The code chosen as far as the picker knows; undefined until the page or the map says. */
    let code = props.modelValue;
    let away = false;
    watchReloads();

    const made = () => JSON.stringify(REMOUNT_ON.map((name) => props[name]));
    const keep = (token: string) => (kept = token);
    const setCode = (next: string) => next !== code && emit('update:modelValue', (code = next));
    const live = () => (mount && !mount.stopped ? mount.handle : undefined);
    const latest = {
      get current(): MountProps {
        const { modelValue, containerStyle, value, getSession, sessionToken, ...rest } = props;
        return {
          ...rest,
          value: (code ?? value) || undefined,
          sessionToken: kept ?? sessionToken,
          getSession: getSession && (() => askSession(getSession).then(keep)),
          onReady: (info) => (info.value && setCode(info.value.loc_code), emit('ready', info)),
          onSelect: (result) => (setCode(result.loc_code), emit('select', result)),
          onPreview: (result) => emit('preview', result),
          onClear: () => (setCode(''), emit('clear')),
          onError: (error) => emit('error', error),
        };
      },
    };
    const start = () => startMount((mount = newMount(made())), latest, box, () => undefined);
    const stop = () => mount && stopMount(mount);

    /** Makes the map show `next`, a code the page set; a code the map refuses leaves the model as it was. */
    const show = (next: string) => {
      const before = code;
      const handle = live();
      if (next === before) return;
      code = next;
      if (!handle) return;
      if (!next) return void handle.clear().catch(() => undefined);
      handle.select(next).catch((error: LocEmbedError) => {
        if (code !== next || !error.recoverable) return;
        setCode(before ?? '');
        emit('error', error);
      });
    };

    // As React's: a new map is a new session, unless the page gave sessionToken.
    watch(made, () => ((kept = undefined), stop(), box.current && !away && start()));
    watch(
      () => props.style,
      (style) => {
        const handle = live();
        if (handle && style && style !== mount!.style) handle.setStyle((mount!.style = style));
      },
    );
    watch(() => props.modelValue, (next) => show(next ?? ''));

    onMounted(() => ((kept = handed?.shift()), start()));
    // KeepAlive moves a deactivated picker's DOM out of the document, which reloads its iframe past
    // the loader's reach: the map goes, and comes back on the session it had, opening on `code`.
    onDeactivated(() => ((away = true), stop()));
    onActivated(() => away && ((away = false), start()));
    onBeforeUnmount(() => (kept && handed?.push(kept), stop()));

    expose(new Proxy({} as LocPickerHandle, { get: (_, name) => live()?.[name as keyof LocHandle], has: (_, name) => name in (live() ?? {}) }));

    return () => h('div', { ref: (element) => (box.current = element as HTMLElement | null), style: props.containerStyle });
  },
  {
    name: 'LocPicker',
    // No runtime types: LOC.mount checks each value, and names a wrong one (onLoadError).
    props: ['baseUrl', 'sessionToken', 'getSession', 'onLoadError', 'modelValue', 'containerStyle', 'height', 'center', 'zoom', 'style', 'confirm', 'loadTimeout', 'title', 'search', 'value', 'locale', 'appearance'],
    emits: ['ready', 'select', 'preview', 'clear', 'error', 'update:modelValue'],
  },
);

/** Vue's hot-reload runtime, which a development build of Vue defines and Vite's and webpack's Vue plugins call. */
interface HotReload {
  reload(id: string, component: unknown): void;
}

/**
 * While a hot reload is under way, from its call to the end of the render it queues: the sessions of
 * the pickers it unmounted, in the page's order, which is the order it mounts their successors in.
 */
let handed: string[] | undefined;
let watched: HotReload | undefined;

/**
 * Follows Vue's hot reloads, in a development build: a reload replaces the component it reloads, and
 * every picker inside, by new ones, which would each ask for a session of their own.
 */
function watchReloads() {
  const runtime = (globalThis as { __VUE_HMR_RUNTIME__?: HotReload }).__VUE_HMR_RUNTIME__;
  if (!runtime || runtime === watched) return;
  const { reload } = (watched = runtime);
  runtime.reload = (id, component) => {
    handed = [];
    reload(id, component);
    void nextTick(() => (handed = undefined));
  };
}
