/**
 * The light client's storage port: verified headers in the order they were verified (a topological order), so a
 * restart replays them through GHOSTDAG without re-downloading; and, for a tab that joined at a pruning point instead
 * of genesis, the join itself — the proof it verified and the trusted blocks with their GHOSTDAG data — so a reload
 * rebuilds the chain under that point without asking for the proof again (docs/web.md "Joining at a pruning point").
 * The browser implements it on IndexedDB (web/light/idb-header-store.ts); tests and the benchmark use the in-memory
 * one here.
 */
import type { TrustedGhostdagData } from '../consensus/ghostdag.ts';

export interface StoredHeader {
  /** Insertion order, 1.. (genesis and the trusted blocks of a join are not stored here). */
  readonly seq: number;
  readonly hash: Uint8Array;
  /** The header's canonical encoding (src/codec/header.ts). */
  readonly bytes: Uint8Array;
}

interface StoredTrustedBlock {
  /** The header's canonical encoding. */
  readonly header: Uint8Array;
  readonly height: number;
  readonly ghostdag: TrustedGhostdagData;
}

/** A join the tab verified: what its chain hangs from instead of genesis. */
export interface StoredJoin {
  readonly pruningPoint: Uint8Array;
  /** The proof as it came (src/p2p/pruning-proof-codec.ts): its headers answer level-parent queries below the point. */
  readonly proof: Uint8Array;
  /** The trusted blocks, headers only, in the order they were checked (ascending blue work). */
  readonly blocks: readonly StoredTrustedBlock[];
}

export interface LightHeaderStore {
  /** Every stored header, ascending by seq. */
  load(): Promise<StoredHeader[]>;
  /** Appends headers (ascending seq, continuing the stored ones) in one atomic write. */
  append(headers: readonly StoredHeader[]): Promise<void>;
  /** The join the stored headers hang from; undefined for a chain from genesis (every store written before joins). */
  loadJoin(): Promise<StoredJoin | undefined>;
  /** Replaces everything with a new join, in one atomic write: the headers stored before are dropped. */
  saveJoin(join: StoredJoin): Promise<void>;
  /** Forgets everything (a new network, or the user resets the light node). */
  clear(): Promise<void>;
}

export function createMemoryHeaderStore(): LightHeaderStore & { readonly rows: StoredHeader[]; join(): StoredJoin | undefined } {
  const rows: StoredHeader[] = [];
  let join: StoredJoin | undefined;
  return {
    rows,
    join: () => join,
    load: () => Promise.resolve(rows.slice()),
    append(headers) {
      rows.push(...headers);
      return Promise.resolve();
    },
    loadJoin: () => Promise.resolve(join),
    saveJoin(next) {
      rows.length = 0;
      join = next;
      return Promise.resolve();
    },
    clear() {
      rows.length = 0;
      join = undefined;
      return Promise.resolve();
    },
  };
}
