/**
 * The service's worker threads under test, through Node's inspector: a test stops a worker at a
 * function of its own code (a breakpoint), lets it go, or ends it as a crash would (`process.exit`
 * inside it). The real workers run the real code; nothing in the service is made for tests.
 *
 * Only piscina's workers are watched (src/workers/pool.ts), not the other threads of the process.
 */
import { Session } from 'node:inspector/promises';

/** How long a test waits for a worker to show up or load a script before it fails, ms. */
const WAIT_MS = 10_000;

/** One attached worker, as the inspector names it. */
interface Watched {
  sessionId: string;
  scripts: { scriptId: string; url: string }[];
  replies: Map<number, (message: { result?: unknown; error?: { message: string } }) => void>;
  /** The top call frame while it is stopped at a breakpoint. */
  pausedAt: string | null;
  ended: Promise<void>;
  end: () => void;
  alive: boolean;
  debugging: boolean;
}

export interface WorkerWatch {
  /**
   * Stops every watched worker that has loaded a script matching `script` at the first statement of
   * its function `name`, from the next call on. Fails if no worker has loaded such a script.
   */
  breakAt(name: string, script: RegExp): Promise<void>;
  /** The next worker to stop at the breakpoint (already stopped ones count). */
  stopped(): Promise<string>;
  /** Removes the breakpoints and lets every stopped worker go on. */
  release(): Promise<void>;
  /** Ends a stopped worker as a crash would, `process.exit(code)` inside it; resolves once its thread has ended. */
  crash(worker: string, code: number): Promise<void>;
  /** Every watched worker that is still running. */
  running(): string[];
  /** Lets every worker go and stops watching. */
  close(): Promise<void>;
}

/** Resolves once `ready()` is true, checking at each event; rejects with `what` after WAIT_MS. */
function waitUntil(ready: () => boolean, what: string, onEvent: Set<() => void>): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!ready()) return;
      clearTimeout(timer);
      onEvent.delete(check);
      resolve();
    };
    const timer = setTimeout(() => {
      onEvent.delete(check);
      reject(new Error(`${what} within ${WAIT_MS} ms`));
    }, WAIT_MS);
    onEvent.add(check);
    check();
  });
}

/** Starts watching the piscina workers of this process, those running and those to come. */
export async function watchWorkers(): Promise<WorkerWatch> {
  const session = new Session();
  session.connect();
  const workers = new Map<string, Watched>();
  const onEvent = new Set<() => void>();
  const changed = (): void => onEvent.forEach((check) => check());
  const breakpoints = new Map<string, string[]>();
  let nextId = 1;

  session.on('NodeWorker.attachedToWorker', ({ params }) => {
    if (!params.workerInfo.url.includes('/piscina/')) return;
    let end = (): void => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    workers.set(params.sessionId, { sessionId: params.sessionId, scripts: [], replies: new Map(), pausedAt: null, ended, end, alive: true, debugging: false });
    changed();
  });
  session.on('NodeWorker.detachedFromWorker', ({ params }) => {
    const worker = workers.get(params.sessionId);
    if (worker === undefined) return;
    worker.alive = false;
    worker.pausedAt = null;
    // A command it will never answer fails rather than hang the test.
    for (const reply of [...worker.replies.values()]) reply({ error: { message: 'the worker ended' } });
    worker.end();
    changed();
  });
  session.on('NodeWorker.receivedMessageFromWorker', ({ params }) => {
    const worker = workers.get(params.sessionId);
    if (worker === undefined) return;
    const message = JSON.parse(params.message) as { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string } };
    if (message.id !== undefined) worker.replies.get(message.id)?.(message);
    else if (message.method === 'Debugger.scriptParsed') worker.scripts.push(message.params as Watched['scripts'][number]);
    else if (message.method === 'Debugger.paused') worker.pausedAt = (message.params as { callFrames: { callFrameId: string }[] }).callFrames[0].callFrameId;
    else if (message.method === 'Debugger.resumed') worker.pausedAt = null;
    changed();
  });

  /** Sends an inspector command to a worker; resolves with its result. */
  const send = <T>(worker: Watched, method: string, params: Record<string, unknown> = {}): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      worker.replies.set(id, (reply) => {
        worker.replies.delete(id);
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve(reply.result as T);
      });
      session.post('NodeWorker.sendMessageToWorker', { sessionId: worker.sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
  const alive = (): Watched[] => [...workers.values()].filter((worker) => worker.alive);
  const named = (id: string): Watched => {
    const worker = workers.get(id);
    if (worker === undefined) throw new Error(`no worker ${id} was watched`);
    return worker;
  };

  await session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });

  const watch: WorkerWatch = {
    async breakAt(name, script) {
      await waitUntil(() => alive().length > 0, 'no worker thread of a pool was started', onEvent);
      for (const worker of alive()) {
        if (!worker.debugging) await send(worker, 'Debugger.enable');
        worker.debugging = true;
        await waitUntil(() => worker.scripts.some((s) => script.test(s.url)), `no worker thread loaded a script matching ${script}`, onEvent);
        const { scriptId } = worker.scripts.find((s) => script.test(s.url))!;
        // The script as the worker runs it (tsx's output, or the build's): its lines are not the source's.
        const { scriptSource } = await send<{ scriptSource: string }>(worker, 'Debugger.getScriptSource', { scriptId });
        const declared = scriptSource.search(new RegExp(`function ${name}\\(`));
        if (declared < 0) throw new Error(`${script} declares no function ${name}`);
        const before = scriptSource.slice(0, scriptSource.indexOf('{', declared) + 1).split('\n');
        const location = { scriptId, lineNumber: before.length - 1, columnNumber: before[before.length - 1].length };
        const { breakpointId } = await send<{ breakpointId: string }>(worker, 'Debugger.setBreakpoint', { location });
        breakpoints.set(worker.sessionId, [...(breakpoints.get(worker.sessionId) ?? []), breakpointId]);
      }
    },
    async stopped() {
      const worker = () => alive().find((w) => w.pausedAt !== null);
      await waitUntil(() => worker() !== undefined, 'no worker stopped at the breakpoint', onEvent);
      return worker()!.sessionId;
    },
    async release() {
      for (const worker of alive()) {
        for (const breakpointId of breakpoints.get(worker.sessionId) ?? []) await send(worker, 'Debugger.removeBreakpoint', { breakpointId });
        breakpoints.delete(worker.sessionId);
        if (worker.pausedAt !== null) await send(worker, 'Debugger.resume');
      }
    },
    async crash(id, code) {
      const worker = named(id);
      if (worker.pausedAt === null) throw new Error(`worker ${id} is not stopped`);
      // The exit takes effect once the worker runs again: the evaluation's context is gone by then,
      // so its reply is an error, which says nothing about the exit.
      void send(worker, 'Debugger.evaluateOnCallFrame', { callFrameId: worker.pausedAt, expression: `process.exit(${code})` }).catch(() => undefined);
      void send(worker, 'Debugger.resume').catch(() => undefined);
      await worker.ended;
    },
    running: () => alive().map((worker) => worker.sessionId),
    async close() {
      await watch.release();
      session.disconnect();
    },
  };
  return watch;
}
