/**
 * What one fake map of the fake `LOC` (fake-loc.ts) knows, shared by the handle the component holds
 * (fake-handle.ts) and the controls the test holds, and what both do to it: call the component, stop.
 */
import type { LocAbortError, LocEmbedError, LocLatLng, LocMountOptions, LocStyle } from '../../../src/embed/public-types.ts';
import type { ResultFor } from './fake-results.ts';

/** A call the component made on a handle, with its arguments as given. */
export type FakeHandleCall =
  | { method: 'setStyle'; args: [style: LocStyle] }
  | { method: 'setView'; args: [center: LocLatLng, zoom?: number] }
  | { method: 'select'; args: [target: string | LocLatLng] }
  | { method: 'clear'; args: [] }
  | { method: 'destroy'; args: [] };

/** What one fake map knows: shared by the handle the component holds and the controls the test holds. */
export interface FakeMap {
  readonly options: LocMountOptions;
  /** The code it opens on (`value`, as the loader read it). */
  readonly value: string | undefined;
  readonly resultFor: ResultFor;
  readonly calls: FakeHandleCall[];
  style: LocStyle;
  view: { center: { lat: number; lng: number }; zoom: number };
  ready: boolean;
  stopped: LocEmbedError | LocAbortError | undefined;
  /** What the page asked before onReady, answered once it comes, or refused once the map stops. */
  waiting: { go(): void; refuse(reason: unknown): void }[];
}

/** Calls one of the component's callbacks, unless the map has stopped. */
export function callComponent<T>(map: FakeMap, callback: ((arg: T) => void) | undefined, arg: T): void {
  if (map.stopped || !callback) return;
  // As the loader's: an exception in the component's callback is the component's, reported, and the map goes on.
  try {
    callback(arg);
  } catch (error) {
    reportError(error);
  }
}

/** Stops the map for `reason`, refusing what the page still waits for. */
export function stopMap(map: FakeMap, reason: LocEmbedError | LocAbortError): void {
  if (map.stopped) return;
  map.stopped = reason;
  for (const request of map.waiting) request.refuse(reason);
  map.waiting = [];
}

/** Runs `then` once the map is ready, as the real handle's select and clear wait for onReady; rejects with what it throws. */
export function whenReady<T>(map: FakeMap, then: () => T): Promise<T> {
  if (map.stopped) return Promise.reject(map.stopped);
  if (map.ready) return Promise.resolve().then(then);
  return new Promise<T>((resolve, reject) => map.waiting.push({ go: () => settle(then, resolve, reject), refuse: reject }));
}

/** `then`'s value to `resolve`, or what it throws to `reject`, at once. */
function settle<T>(then: () => T, resolve: (value: T) => void, reject: (reason: unknown) => void): void {
  try {
    resolve(then());
  } catch (error) {
    reject(error);
  }
}

/** Fails the test that drives a stopped mount: the real map would silently do nothing. */
export function assertAlive(map: FakeMap, what: string): void {
  if (map.stopped) throw new Error(`FakeMount.${what}: the mount has stopped (${map.stopped.message}); the real map would do nothing.`);
}
