/**
 * A hostile frame from another site in the integrator's page, trying to take over the handshake: it
 * posts, as fast as the browser lets it, a `loc:hello` to the page (as if it were the map frame), a
 * comlink call of `onSelect` to the page, and a `loc:connect` with a port of its own to every other
 * frame of the page (as if it were the loader) — with the mount's real nonce, which the test hands
 * it, so only the checks of `event.source` and origin stand in its way. A frame that took one of its
 * ports would answer the comlink call waiting on it (`setStyle('satellite')`).
 *
 * `watchForgeries` and `watchHellos` show that the attack was real, not merely too late: they count
 * the forged connects that reached the map frame while it was listening for its one connect, and the
 * forged hellos that reached the page while the loader was listening for its frame's.
 */
import type { Frame, Page } from '@playwright/test';

/** What the forger has done, read back from its frame. */
export interface ForgerReport {
  /** Rounds of forged messages posted. */
  fired: number;
  /** Messages that came back on any of its ports: each would be the map frame talking to it. */
  answered: number;
}

/** What the map frame saw, counted by `watchForgeries`. */
export interface FrameWatch {
  /** Forged connects that arrived after the frame started listening and before the loader's connect. */
  forgedWhileListening: number;
  connected: boolean;
}

/** What the page saw, counted by `watchHellos`. */
export interface HelloWatch {
  /** Hellos from any window but the map frame's, before the map frame's own. */
  forgedWhileListening: number;
  helloed: boolean;
}

declare global {
  interface Window {
    locForger?: ForgerReport & { ports: MessagePort[]; timer: ReturnType<typeof setInterval> };
    locFrameWatch?: FrameWatch;
    locHelloWatch?: HelloWatch;
  }
}

/**
 * Counts, in every map frame of `page`'s later documents, the forged connects it receives while it
 * waits for the loader's. An init script, so it listens before the frame's own script does.
 */
export async function watchForgeries(page: Page, serviceOrigin: string): Promise<void> {
  await page.addInitScript((serviceOrigin) => {
    if (location.origin !== serviceOrigin || !location.pathname.startsWith('/embed/frame/')) return;
    const watch: FrameWatch = (window.locFrameWatch = { forgedWhileListening: 0, connected: false });
    addEventListener('message', (event: MessageEvent<{ type?: string } | null>) => {
      if (event.data?.type !== 'loc:connect') return;
      if (event.source === parent) watch.connected = true;
      // The frame's script runs to its end in one task, creating the map and then listening; so once
      // the map exists, the frame listens — until the loader's connect arrives.
      else if (!watch.connected && document.querySelector('.leaflet-container')) watch.forgedWhileListening++;
    });
  }, serviceOrigin);
}

/** Counts, in the page, the forged hellos that arrive before the map frame's own (the loader's window). */
export function watchHellos(page: Page): Promise<void> {
  return page.evaluate(() => {
    const watch: HelloWatch = (window.locHelloWatch = { forgedWhileListening: 0, helloed: false });
    addEventListener('message', (event: MessageEvent<{ type?: string } | null>) => {
      if (event.data?.type !== 'loc:hello') return;
      if (event.source === document.querySelector<HTMLIFrameElement>('#map iframe')?.contentWindow) watch.helloed = true;
      else if (!watch.helloed) watch.forgedWhileListening++;
    });
  });
}

export function helloWatch(page: Page): Promise<HelloWatch> {
  return page.evaluate(() => window.locHelloWatch!);
}

/** Starts the forger in its frame with the mount's nonce. */
export function startForging(forger: Frame, nonce: string): Promise<void> {
  return forger.evaluate((nonce) => {
    const forged = { success: true, loc_code: 'XX-FORG-ED00', latitude: 0, longitude: 0, address: 'forged', country_code: 'XX', saved: true, share_url: 'https://forged.invalid/' };
    const report: NonNullable<Window['locForger']> = { fired: 0, answered: 0, ports: [], timer: setInterval(() => {
      for (let round = 0; round < 5; round++) fire();
    }, 1) };
    function fire(): void {
      parent.postMessage({ type: 'loc:hello', nonce }, '*');
      parent.postMessage({ id: 'forged', type: 'APPLY', path: ['select'], argumentList: [{ type: 'RAW', value: forged }] }, '*');
      for (let i = 0; i < parent.frames.length; i++) {
        const target = parent.frames[i];
        if (target === window) continue;
        const channel = new MessageChannel();
        channel.port1.onmessage = () => report.answered++;
        channel.port1.postMessage({ id: 'forged', type: 'APPLY', path: ['setStyle'], argumentList: [{ type: 'RAW', value: 'satellite' }] });
        report.ports.push(channel.port1);
        target.postMessage({ type: 'loc:connect', nonce }, '*', [channel.port2]);
      }
      report.fired++;
    }
    window.locForger = report;
  }, nonce);
}

/** Stops the forger and reports. */
export function stopForging(forger: Frame): Promise<ForgerReport> {
  return forger.evaluate(() => {
    const report = window.locForger!;
    clearInterval(report.timer);
    return { fired: report.fired, answered: report.answered };
  });
}

/** What the map frame of `frame` saw. */
export function frameWatch(frame: Frame): Promise<FrameWatch> {
  return frame.evaluate(() => window.locFrameWatch!);
}
