/**
 * The loader's side of the comlink channel, by hand (see `WireValue` in protocol.ts for why): init,
 * which hands the frame the host callbacks as `comlink.proxy` would, on a port of their own; then the
 * page's calls of the frame's API, whose answers come back on the same port under the call's id.
 */
import type { FrameApi, FrameInit, HostCallbacks, WireMessage, WireReply, WireValue } from './protocol.ts';

let lastId = 0;
const raw = (value: unknown): WireValue => ({ type: 'RAW', value });

export interface FrameChannel {
  /** Calls `method` of the frame's API with plain arguments. Fire and forget: the frame reports its failures through `host.error`. */
  call<K extends keyof FrameApi>(method: K, args: unknown[]): void;
  /**
   * Calls `method` and resolves with what it returned; rejects with what it threw: a plain value as it
   * is, an Error as its message, name and stack (comlink sends no more of it).
   */
  ask<K extends keyof FrameApi>(method: K, args: unknown[]): Promise<unknown>;
  /**
   * Closes the port and the host callbacks' port: nothing is sent after it, and what is asked, then or
   * later, rejects with `reason`.
   */
  close(reason: unknown): void;
}

type Settle = [resolve: (value: unknown) => void, reject: (reason: unknown) => void];

/** Calls `init` on `port` at once (it waits there until the frame takes the other end), then the rest. */
export function frameChannel(port: MessagePort, init: FrameInit, host: HostCallbacks): FrameChannel {
  // Only asked calls wait: an answer nobody waits for is dropped, and a fire-and-forget call leaves no
  // promise to reject unhandled when the channel closes.
  const waiting = new Map<string, Settle>();
  let closed: unknown;
  port.onmessage = ({ data }: MessageEvent<WireReply>) => {
    const settle = waiting.get(data.id);
    waiting.delete(data.id);
    // What comlink writes of a thrown value (protocol.ts): the value itself, or an Error's message, name and stack.
    if (data.type === 'RAW') settle?.[0](data.value);
    else settle?.[1]((data.value as { value: unknown }).value);
  };
  const post = (method: keyof FrameApi, argumentList: WireValue[], transfer: Transferable[] = []): string => {
    const id = `l${++lastId}`;
    port.postMessage({ id, type: 'APPLY', path: [method], argumentList } satisfies WireMessage, transfer);
    return id;
  };
  const callbacks = new MessageChannel();
  answerCalls(callbacks.port1, host);
  post('init', [raw(init), { type: 'HANDLER', name: 'proxy', value: callbacks.port2 }], [callbacks.port2]);
  return {
    call(method, args) {
      if (!closed) post(method, args.map(raw));
    },
    ask: (method, args) => new Promise((...settle) => (closed ? settle[1](closed) : waiting.set(post(method, args.map(raw)), settle))),
    close(reason) {
      closed = reason;
      port.close();
      callbacks.port1.close();
      waiting.forEach((settle) => settle[1](reason));
    },
  };
}

/**
 * Answers the frame's calls to `host` on `port`, the way comlink's `expose` answers calls: the frame's
 * comlink sends nothing else there (a RELEASE only once it is done with the page, which the page
 * outlives; it is answered, harmlessly, as a call of no method). A callback's failure goes back as
 * comlink's non-Error throw, its message alone: the frame rethrows that string.
 */
function answerCalls(port: MessagePort, host: HostCallbacks): void {
  port.onmessage = async ({ data }: MessageEvent<WireMessage>) => {
    const method = host[data.path?.[0] as keyof HostCallbacks] as ((...args: unknown[]) => unknown) | undefined;
    let reply: WireValue;
    try {
      reply = raw(await method?.(...(data.argumentList ?? []).map((arg) => arg.value)));
    } catch (error) {
      reply = { type: 'HANDLER', name: 'throw', value: { value: String((error as Error)?.message ?? error) } };
    }
    port.postMessage({ ...reply, id: data.id } satisfies WireReply);
  };
}
