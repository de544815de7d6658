/**
 * Mounting from a test the way an integrator's script does: `LOC.mount` runs in the page (through
 * `page.evaluate`) and its callbacks record into `window.locEvents`, numbered per mount, so a test
 * can wait for "mount 2 is ready" and later check that mount 1 said nothing more after its destroy.
 * Waits are on those records or on the frame's DOM, never on a fixed delay.
 */
import type { Frame, Page } from '@playwright/test';
import type { LocEmbedError, LocHandle, LocMountOptions, LocReadyInfo, LocResolveResult, LocSelectResult, LocStyle } from '../src/embed/public-types.ts';

/** The options a test passes; the callbacks are the recorder's. */
export type MountOptions = Omit<LocMountOptions, 'sessionToken' | 'onReady' | 'onSelect' | 'onPreview' | 'onClear' | 'onError' | 'getSessionToken'>;

interface Payloads {
  ready: LocReadyInfo;
  select: LocSelectResult;
  preview: LocResolveResult;
  clear: undefined;
  error: LocEmbedError;
}

export type EventName = keyof Payloads;

export interface Recorded {
  /** 1 for the page's first mount, 2 for the next, … */
  mount: number;
  name: EventName;
  payload: unknown;
}

declare global {
  interface Window {
    locEvents?: Recorded[];
    locHandles?: LocHandle[];
    locResolves?: number;
  }
}

/** The callbacks the recorder passes, all of them unless told: a loader before onPreview and onClear refuses those as unknown options. */
export const RECORDED: readonly EventName[] = ['ready', 'select', 'preview', 'clear', 'error'];
/** The callbacks every v1 loader takes. */
export const FIRST_V1_CALLBACKS: readonly EventName[] = ['ready', 'select', 'error'];

/** Mounts into `target` (the page's `#map` by default); resolves with the mount's number. */
export function mount(page: Page, token: string, options: MountOptions = {}, target = '#map', recorded = RECORDED): Promise<number> {
  return page.evaluate(
    ({ token, options, target, recorded }) => {
      const events = (window.locEvents ??= []);
      const handles = (window.locHandles ??= []);
      const id = handles.length + 1;
      const callbacks = Object.fromEntries(
        recorded.map((name) => [`on${name[0].toUpperCase()}${name.slice(1)}`, (payload?: unknown) => void events.push({ mount: id, name, payload })]),
      );
      handles.push(LOC.mount(target, { ...options, sessionToken: token, ...callbacks }));
      return id;
    },
    { token, options, target, recorded },
  );
}

/** Waits for the first `name` callback of mount `id` and returns what it received. */
export async function waitForEvent<N extends EventName>(page: Page, id: number, name: N): Promise<Payloads[N]> {
  // Wrapped: onClear's payload is undefined, which waitForFunction would take for "not yet".
  const found = await page.waitForFunction(
    ({ id, name }) => {
      const event = window.locEvents?.find((event) => event.mount === id && event.name === name);
      return event && { payload: event.payload };
    },
    { id, name },
  );
  return ((await found.jsonValue()) as { payload: Payloads[N] }).payload;
}

/** Waits until mount `id` has received `count` `name` callbacks; returns what they received. */
export async function waitForEvents<N extends EventName>(page: Page, id: number, name: N, count: number): Promise<Payloads[N][]> {
  const found = await page.waitForFunction(
    ({ id, name, count }) => {
      const payloads = (window.locEvents ?? []).filter((event) => event.mount === id && event.name === name).map((event) => event.payload);
      return payloads.length >= count && payloads;
    },
    { id, name, count },
  );
  return (await found.jsonValue()) as Payloads[N][];
}

/** Every callback so far, in order (of mount `id` only, when given). */
export async function events(page: Page, id?: number): Promise<Recorded[]> {
  const all = await page.evaluate(() => window.locEvents ?? []);
  return id === undefined ? all : all.filter((event) => event.mount === id);
}

/** Calls the handle of mount `id`. */
export function setStyle(page: Page, id: number, style: LocStyle): Promise<void> {
  return page.evaluate(({ id, style }) => window.locHandles![id - 1].setStyle(style), { id, style });
}

export function destroy(page: Page, id: number): Promise<void> {
  return page.evaluate((id) => window.locHandles![id - 1].destroy(), id);
}

/**
 * How a call of the handle ended, as the page saw it: the value its promise resolved with, what it
 * rejected with (an Error as its kind, name and message), or what it threw at once.
 */
export type Outcome<T> = { resolved: T } | { rejected: unknown } | { threw: { kind: string; message: string } };

/** Calls `handle.select(target)` of mount `id` (or `clear()` without a target) in the page; resolves with how it ended. */
export function select(page: Page, id: number, target: unknown): Promise<Outcome<LocSelectResult>> {
  return callHandle(page, id, 'select', target) as Promise<Outcome<LocSelectResult>>;
}

export function clear(page: Page, id: number): Promise<Outcome<undefined>> {
  return callHandle(page, id, 'clear') as Promise<Outcome<undefined>>;
}

function callHandle(page: Page, id: number, method: 'select' | 'clear', target?: unknown): Promise<Outcome<unknown>> {
  return page.evaluate(
    async ({ id, method, target }) => {
      const handle = window.locHandles![id - 1];
      let pending: Promise<unknown>;
      try {
        pending = method === 'select' ? handle.select(target as string) : handle.clear();
      } catch (error) {
        return { threw: { kind: (error as Error).constructor.name, message: (error as Error).message } };
      }
      return pending.then(
        (resolved) => ({ resolved }),
        (rejected: unknown) => ({ rejected: rejected instanceof Error ? { kind: rejected.constructor.name, name: rejected.name, message: rejected.message } : rejected }),
      );
    },
    { id, method, target },
  );
}

/** The map frame of mount `id`: the document inside its iframe. */
export async function mapFrame(page: Page, id: number): Promise<Frame> {
  const element = await page.evaluateHandle((id) => window.locHandles![id - 1].iframe, id);
  const frame = await element.asElement()!.contentFrame();
  if (frame === null) throw new Error(`mount ${id} has no frame (destroyed?)`);
  return frame;
}

/**
 * Counts, from now on, the calls the map frame makes to the service's resolve, and returns a reader.
 * A click on the map calls `fetch` within the click's own task, so once Playwright's click has returned
 * a resolve it started is counted: a test can show that a click asked the service nothing, which the
 * page's callbacks alone cannot (a stopped frame also drops what the service answers).
 */
export async function countResolves(frame: Frame): Promise<() => Promise<number>> {
  await frame.evaluate(() => {
    const send = window.fetch;
    window.locResolves = 0;
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (new URL(url, location.href).pathname === '/v1/embed/resolve') window.locResolves!++;
      return send(input, init);
    };
  });
  return () => frame.evaluate(() => window.locResolves!);
}

/** Mounts on the suite's page and waits for onReady; returns the mount's number and its frame. */
export async function mountReady(page: Page, token: string, options: MountOptions, recorded = RECORDED): Promise<{ id: number; frame: Frame }> {
  const id = await mount(page, token, options, '#map', recorded);
  await waitForEvent(page, id, 'ready');
  return { id, frame: await mapFrame(page, id) };
}

/**
 * Resolves once every base-map tile in the frame is loaded and belongs to `style` — that is, the
 * switch is complete and no tile of an earlier style is left on screen.
 */
export async function waitForStyleTiles(frame: Frame, style: LocStyle): Promise<void> {
  await frame.waitForFunction((style) => {
    const tiles = [...document.querySelectorAll<HTMLImageElement>('.leaflet-tile-pane img.leaflet-tile')];
    return tiles.length > 0 && tiles.every((tile) => tile.complete && tile.classList.contains('leaflet-tile-loaded') && tile.src.includes(`/${style}/`));
  }, style);
}
