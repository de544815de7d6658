/**
 * The handle the fake `LOC.mount` (fake-loc.ts) returns to the component: it records each call and
 * answers as the real one is documented to, a code the service would refuse included.
 */
import { readLatLng, readStyle, readZoom } from '../../../src/embed/options.ts';
import type { LocAbortError, LocHandle } from '../../../src/embed/public-types.ts';
import { callComponent, stopMap, whenReady, type FakeMap } from './fake-map.ts';
import { refusedCode } from './fake-results.ts';

/** What the page's select and clear reject with once the mount is gone, as the real handle's do. */
const DESTROYED: LocAbortError = { name: 'AbortError', message: 'The map was destroyed.' };

/** The handle `LOC.mount` returns: it records each call and behaves as the real one is documented to. */
export function fakeHandle(map: FakeMap, iframe: HTMLIFrameElement): LocHandle {
  const { calls } = map;
  return {
    iframe,
    destroy() {
      calls.push({ method: 'destroy', args: [] });
      stopMap(map, DESTROYED);
      iframe.remove();
    },
    setStyle(next) {
      calls.push({ method: 'setStyle', args: [next] });
      map.style = readStyle(next, 'setStyle: style');
    },
    setView(center, zoom) {
      calls.push({ method: 'setView', args: zoom === undefined ? [center] : [center, zoom] });
      map.view = { center: readLatLng(center, 'setView: center'), zoom: zoom === undefined ? map.view.zoom : readZoom(zoom, 'setView: zoom') };
    },
    select(target) {
      calls.push({ method: 'select', args: [target] });
      const checked = typeof target === 'string' ? target : readLatLng(target, 'select: target');
      return whenReady(map, () => {
        const refused = typeof checked === 'string' ? refusedCode(checked) : null;
        if (refused) throw refused;
        const result = typeof checked === 'string' ? map.resultFor(checked, 'page') : map.resultFor({ latitude: checked.lat, longitude: checked.lng }, 'page');
        callComponent(map, map.options.onSelect, result);
        return result;
      });
    },
    clear() {
      calls.push({ method: 'clear', args: [] });
      return whenReady(map, () => undefined);
    },
  };
}
