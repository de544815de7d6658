/**
 * What the store's writes of one row return (store.ts, panel-store.ts): the row as the write found it
 * and as it left it, both read by the write itself under the row's lock. Whether anything changed is
 * `before` against `after`, whichever process or server wrote the row last, never a copy read earlier.
 */
export interface Updated<T> {
  before: T;
  after: T;
}
