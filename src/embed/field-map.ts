/**
 * The map of a `<loc-picker>`, from asking for a session to destroy: the session it holds — kept when
 * the map is mounted again after a move or a change of attributes, so that one field makes one
 * session — the one new mount that answers a `session_expired`, and the handle that `select` and
 * `clear` wait for.
 */
import type { LocEmbedError, LocGlobal, LocHandle, LocMountOptions } from './public-types.ts';

/** What the field gives its map. */
export interface MapHost {
  /** Where the map goes: a `<div>` of the field's shadow root. */
  readonly box: HTMLElement;
  /** The options of a new map: attributes, properties, the value, and the field's callbacks but `onError`. */
  options(): Omit<LocMountOptions, 'sessionToken' | 'getSessionToken' | 'onError'>;
  /** Asks for a new session token (`getSessionToken`, else `session-url`); null when the field has nowhere to ask. */
  asker(): (() => Promise<string>) | null;
  /** The token the page gave for the first map (`sessionToken`). */
  firstToken(): string | undefined;
  /** What the map reports that no new mount answers. */
  error(error: LocEmbedError): void;
  /** No map at all: no session, no script, or options `LOC.mount` refused. */
  failed(error: Error): void;
}

/** One mount: destroyed or replaced, it mounts nothing more. */
interface Mount {
  handle?: LocHandle;
  stopped: boolean;
  /** Made to answer a `session_expired`, and not ready yet: another expiry is told, not answered. */
  renewing: boolean;
  /** Settled with the handle once mounted. */
  mounted: Promise<LocHandle>;
  settle: [(handle: LocHandle) => void, (reason: unknown) => void];
}

/** What `select` and `clear` reject with once the map is destroyed, as the loader's handle does. */
const DESTROYED = { name: 'AbortError', message: 'The map was destroyed.' };

function newMount(renewing: boolean): Mount {
  const mount = { stopped: false, renewing } as Mount;
  mount.mounted = new Promise((...settle) => (mount.settle = settle));
  mount.mounted.catch(() => undefined);
  return mount;
}

const NO_SESSION = '<loc-picker>: give it a session-url attribute, or a sessionToken or getSessionToken property; it has none.';

export class FieldMap {
  #mount?: Mount;
  /** The session the map holds. */
  #token?: string;
  /** The page's first token was taken: the next come from the map's own session, or from asking. */
  #firstSpent = false;
  #remounting = false;

  constructor(
    private readonly host: MapHost,
    private readonly load: () => Promise<LocGlobal>,
  ) {}

  /** The handle while a map is mounted. */
  get handle(): LocHandle | undefined {
    return this.#mount?.handle;
  }

  /** Whether a map is mounted or on its way. */
  get started(): boolean {
    return this.#mount !== undefined;
  }

  /** The handle once mounted; rejects as a destroyed handle does when there is no map. */
  whenMounted(): Promise<LocHandle> {
    return this.#mount?.mounted ?? Promise.reject(DESTROYED);
  }

  /** Mounts a map; `expired` is the `session_expired` it answers, told with why should no session come. */
  start(expired?: LocEmbedError): void {
    const mount = (this.#mount = newMount(expired !== undefined));
    const token = this.#token ?? this.#firstToken();
    Promise.all([this.load(), token ?? this.#ask()]).then(
      ([LOC, session]) => this.#into(mount, LOC, session),
      (error: Error) => {
        if (mount.stopped) return;
        if (expired) this.host.error({ ...expired, message: `${expired.message} No new session: ${error?.message ?? error}` });
        else this.host.failed(error);
      },
    );
  }

  /** Mounts again on the session the map has, after the microtask: several changes at once mount once. */
  remount({ newSession = false } = {}): void {
    if (newSession) this.#token = undefined;
    if (this.#remounting) return;
    this.#remounting = true;
    queueMicrotask(() => {
      this.#remounting = false;
      // A map still on its way reads the options when it mounts.
      if (!this.#mount?.handle) return;
      this.stop();
      this.start();
    });
  }

  stop(): void {
    const mount = this.#mount;
    if (!mount) return;
    mount.stopped = true;
    mount.settle[1](DESTROYED);
    mount.handle?.destroy();
    this.#mount = undefined;
  }

  /** The page's token, for the first map only: after it, the map's own session, or a new one. */
  #firstToken(): string | undefined {
    if (this.#firstSpent) return undefined;
    this.#firstSpent = true;
    return this.host.firstToken();
  }

  #ask(): Promise<string> {
    const ask = this.host.asker();
    return ask ? ask() : Promise.reject(new Error(NO_SESSION));
  }

  #into(mount: Mount, LOC: LocGlobal, token: string): void {
    if (mount.stopped) return;
    this.#token = token;
    const options = this.host.options();
    const renewable = this.host.asker() !== null;
    try {
      mount.handle = LOC.mount(this.host.box, {
        ...options,
        sessionToken: token,
        getSessionToken: renewable ? () => this.#ask().then((next) => (this.#token = next)) : undefined,
        onReady: (info) => {
          mount.renewing = false;
          options.onReady?.(info);
        },
        onError: (error) => (error.code === 'session_expired' && !mount.renewing && renewable ? this.#renew(error) : this.host.error(error)),
      });
    } catch (error) {
      return this.host.failed(new TypeError(`<loc-picker>: ${(error as Error).message}`));
    }
    mount.settle[0](mount.handle);
  }

  /** Answers `session_expired` with a new mount on a new session; when none comes, the page hears why. */
  #renew(expired: LocEmbedError): void {
    this.#token = undefined;
    this.stop();
    this.start(expired);
  }
}
