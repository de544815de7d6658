/**
 * The loader's side of the comlink channel, by hand (see `WireValue` in protocol.ts for why): calls to
 * the frame's API, and the host callbacks answered on a port of their own, as `comlink.proxy` would.
 */
import type { FrameApi, HostCallbacks, WireMessage, WireReply, WireValue } from './protocol.ts';

let lastId = 0;
const raw = (value: unknown): WireValue => ({ type: 'RAW', value });

/**
 * Calls `method` of the frame's API with plain arguments and, when `host` is given, the host callbacks
 * after them as a proxy; returns the port those are answered on, for the caller to close. Fire and
 * forget: the frame reports its failures through `host.error`.
 */
export function callFrame<K extends keyof FrameApi>(
  port: MessagePort,
  method: K,
  args: unknown[],
  host?: HostCallbacks,
): MessagePort | undefined {
  const argumentList = args.map(raw);
  const channel = host && new MessageChannel();
  if (channel) {
    answerCalls(channel.port1, host!);
    argumentList.push({ type: 'HANDLER', name: 'proxy', value: channel.port2 });
  }
  port.postMessage({ id: `l${++lastId}`, type: 'APPLY', path: [method], argumentList } satisfies WireMessage, channel ? [channel.port2] : []);
  return channel?.port1;
}

/** Answers the frame's calls to `host` on `port`, the way comlink's `expose` does. */
function answerCalls(port: MessagePort, host: HostCallbacks): void {
  port.onmessage = async ({ data }: MessageEvent<WireMessage>) => {
    const method = host[data.path?.[0] as keyof HostCallbacks] as ((...args: unknown[]) => unknown) | undefined;
    let reply: WireValue = raw(undefined);
    if (data.type === 'APPLY' && method) {
      try {
        // Only plain values come this way: the frame passes no proxies to the page.
        reply = raw(await method(...(data.argumentList ?? []).map((arg) => arg.value)));
      } catch (error) {
        reply = { type: 'HANDLER', name: 'throw', value: { isError: true, value: { message: String((error as Error)?.message ?? error) } } };
      }
    }
    port.postMessage({ ...reply, id: data.id } satisfies WireReply);
    if (data.type === 'RELEASE') port.close();
  };
}
