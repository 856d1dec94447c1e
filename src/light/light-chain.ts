/**
 * A header-only chain for light clients: every header runs the full node's header stages (src/chain/
 * validate-header.ts) — in isolation, PoW, then in context with GHOSTDAG's blue score and blue work from the same
 * engine (src/consensus/ghostdag.ts), the DAA's bits and the past median time from the same window code
 * (src/chain/child-rules.ts), and a version 2 header's level parents and pruning point (src/chain/header-commitments.ts).
 * What a light client cannot check is the body and the state root: it has
 * neither the transactions nor the state; it trusts the state root only as far as the PoW on the header that
 * commits to it (docs/web.md "What the light node verifies").
 *
 * It starts from genesis, or from a join (light-join.ts): a verified pruning-point proof and the trusted blocks of
 * its point, hung from the engine's virtual origin with the GHOSTDAG data they came with (docs/pruning-proof.md
 * "The tab"). Verified headers go to a LightHeaderStore in verification order, after the join if there is one;
 * `open` rebuilds the join and replays the headers through GHOSTDAG (their PoW was checked before they were
 * stored — the store is the client's own), so a reloaded tab resumes at once.
 *
 * The chain's state is one LightChainState (chain/state.ts); each operation is a free function over it in
 * src/light/chain/ (add-headers.ts, graph.ts, read.ts, persist.ts).
 */
import type { IndexedBlock } from '../chain/block-index.ts';
import type { BlockHeader } from '../codec/header.ts';
import type { BlockId, GhostdagData, GhostdagEngine } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import type { VerifiedProof } from '../pruning-proof/verify-proof.ts';
import type { Clock } from '../util/clock.ts';
import { addHeaders } from './chain/add-headers.ts';
import { graphFromGenesis } from './chain/graph.ts';
import { flushChain, joinChain, resumeFromStore } from './chain/persist.ts';
import { blockAtHeight, chainLocator, joinProof } from './chain/read.ts';
import { genesisBlockOf, type LightChainState } from './chain/state.ts';
import type { CheckedJoin } from './light-join.ts';
import type { LightHeaderStore } from './light-store.ts';

/** What GHOSTDAG said of one block, as pages show it: its selected parent and merge set. */
export type LightMergeset = Pick<GhostdagData, 'selectedParent' | 'mergesetBlues' | 'mergesetReds'>;

/**
 * What pages read of a verified header chain: a LightChain itself, or its mirror in the page while the chain runs in
 * a Worker (web/light/chain-mirror.ts). Every answer is about headers this client verified.
 */
export interface LightChainView {
  readonly params: NetworkParams;
  readonly genesis: IndexedBlock;
  has(id: BlockId): boolean;
  get(id: BlockId): IndexedBlock | undefined;
  selectedTip(): IndexedBlock;
  /** The block at `height` on the selected chain (undefined below a join's trusted blocks). */
  blockAtHeight(height: number): IndexedBlock | undefined;
  /** Headers known: genesis, or a join's trusted blocks, and every header verified above. */
  count(): number;
  /** The pruning point this chain joined at; undefined for a chain from genesis. */
  joinedAt(): IndexedBlock | undefined;
  mergeset(id: BlockId): LightMergeset | undefined;
}

export interface LightChain extends LightChainView {
  /** The current engine (a join replaces it). */
  readonly engine: GhostdagEngine;
  /**
   * Verifies headers in order (each header's parents must be known or earlier in the list) and indexes them;
   * known ones are skipped. Throws LightSyncError at the first bad one — the ones before it stay verified.
   * Returns how many were new. Call `flush()` to persist them.
   */
  addHeaders(headers: readonly BlockHeader[]): number;
  /** Writes the headers verified since the last flush to the store. */
  flush(): Promise<void>;
  /** Every block known, parents before children (insertion order): what a mirror is built from. */
  blocks(): IterableIterator<IndexedBlock>;
  /** Headers replayed from the store at open (verified in an earlier session). */
  readonly resumedCount: number;
  /** Selected-chain hashes, tip first, one apart for ten then doubling, ending at genesis (docs/p2p.md). */
  locator(): Uint8Array[];
  /** The verified proof of the current join (verified again, once, after a reload); undefined from genesis. */
  joinProof(): VerifiedProof | undefined;
  /**
   * Rebuilds the chain on `join` (checked by checkJoin) and stores it, dropping every header before; throws
   * LightSyncError (`trusted-invalid`) when the trusted blocks do not fit together, with nothing changed.
   */
  join(join: CheckedJoin): Promise<void>;
  /** Headers above the join whose pruning point was not recomputed (it reads below the trusted set; join-commitments.ts). */
  commitmentsDeferred(): number;
}

export interface LightChainOptions {
  readonly params: NetworkParams;
  readonly store: LightHeaderStore;
  readonly clock: Clock;
}

export async function openLightChain(options: LightChainOptions): Promise<LightChain> {
  const { params, store, clock } = options;
  const genesis = genesisBlockOf(params);
  const state: LightChainState = { params, store, clock, genesis, graph: graphFromGenesis(params, genesis), staged: [], nextStoredSeq: 1, deferred: 0 };
  // The store holds only a join and headers this client verified itself; one that does not replay is started over.
  const resumedCount = await resumeFromStore(state);
  if (resumedCount === undefined) {
    await store.clear();
    return openLightChain(options);
  }
  return {
    params,
    get engine() {
      return state.graph.engine;
    },
    genesis,
    resumedCount,
    addHeaders: (headers) => addHeaders(state, headers),
    flush: () => flushChain(state),
    has: (id) => state.graph.index.has(id),
    get: (id) => state.graph.index.get(id),
    selectedTip: () => state.graph.tip,
    blockAtHeight: (height) => blockAtHeight(state, height),
    count: () => state.graph.index.size,
    blocks: () => state.graph.index.values(),
    mergeset: (id) => state.graph.engine.get(id),
    locator: () => chainLocator(state),
    joinedAt: () => state.graph.joined?.point,
    joinProof: () => joinProof(state),
    join: (checked) => joinChain(state, checked),
    commitmentsDeferred: () => state.deferred,
  };
}
