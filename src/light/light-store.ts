/**
 * The light client's storage port: verified headers in the order they were verified (a topological order), so a
 * restart replays them through GHOSTDAG without re-downloading. The browser implements it on IndexedDB
 * (web/light/idb-header-store.ts); tests and the benchmark use the in-memory one here.
 */

export interface StoredHeader {
  /** Insertion order, 1.. (genesis is not stored: it comes from the network params). */
  readonly seq: number;
  readonly hash: Uint8Array;
  /** The header's canonical encoding (src/codec/header.ts). */
  readonly bytes: Uint8Array;
}

export interface LightHeaderStore {
  /** Every stored header, ascending by seq. */
  load(): Promise<StoredHeader[]>;
  /** Appends headers (ascending seq, continuing the stored ones) in one atomic write. */
  append(headers: readonly StoredHeader[]): Promise<void>;
  /** Forgets everything (a new network, or the user resets the light node). */
  clear(): Promise<void>;
}

export function createMemoryHeaderStore(): LightHeaderStore & { readonly rows: StoredHeader[] } {
  const rows: StoredHeader[] = [];
  return {
    rows,
    load: () => Promise.resolve(rows.slice()),
    append(headers) {
      rows.push(...headers);
      return Promise.resolve();
    },
    clear() {
      rows.length = 0;
      return Promise.resolve();
    },
  };
}
