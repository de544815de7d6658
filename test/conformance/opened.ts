/**
 * The set-up every conformance suite shares: before each test, the adapter's `open` gives a fresh
 * database with the store under test on it and a second store beside it (OpenedStore); after each,
 * both stores are closed and what `open` made is released.
 */
import { afterEach, beforeEach } from 'vitest';
import type { Store } from '../../src/store/store.ts';

export interface OpenedStore {
  /** The store under test. */
  store: Store;
  /** Another store on the same database. */
  second: Store;
  /**
   * Lets what the second store wrote reach the store under test: nothing to do for a store that reads
   * the database each time; for one that keeps reads a while, the passing of that while.
   */
  settle: () => void;
  /**
   * Makes the database refuse writes as a full one does, and accept them again; a networked engine's
   * takes a statement, so either may return a promise.
   */
  fill: { begin: () => void | Promise<void>; end: () => void | Promise<void> };
  /**
   * One statement on the database, through a connection of the test's own rather than a store's: what
   * a person at the engine's shell could do (the audit suite's append-only check). SQL engines only;
   * literals in the statement, as the engines' placeholders differ.
   */
  sql?: (text: string) => Promise<void>;
  /** Releases what `open` made (temporary files); the suite closes both stores itself. */
  dispose?: () => Promise<void> | void;
}

/** What `open` gave the test that is running: read during a test, never kept past it. */
export type Opened = Readonly<Omit<OpenedStore, 'dispose'>>;

/** Registers the hooks in the suite that calls it; what the running test's `open` gave. */
export function openedPerTest(open: () => Promise<OpenedStore>): Opened {
  let current: OpenedStore | undefined;
  beforeEach(async () => {
    current = await open();
  });
  afterEach(async () => {
    const ending = current;
    current = undefined;
    if (ending === undefined) return;
    await Promise.all([ending.store.close(), ending.second.close()]);
    await ending.dispose?.();
  });
  const now = (): OpenedStore => {
    if (current === undefined) throw new Error('the stores are open while a test runs, and only then');
    return current;
  };
  return {
    get store() {
      return now().store;
    },
    get second() {
      return now().second;
    },
    settle: () => now().settle(),
    get fill() {
      return now().fill;
    },
    get sql() {
      return now().sql;
    },
  };
}
