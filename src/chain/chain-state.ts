/**
 * The state of an open chain (src/chain/chain.ts): the store view, the GHOSTDAG engine and the block index over it,
 * the tips, the selected tip and the selected chain, orphans and refused blocks, the listeners, the pruner and the
 * state machine. Opening builds it (`openChainState`); the operations are free functions beside it: add-block.ts
 * (the pipeline), chain-reads.ts (tips, the selected chain, child state), chain-join.ts (the end of a join, the
 * pruner's resume).
 */
import { decodeHeader } from '../codec/header.ts';
import { openKvConsensusStore } from '../consensus/consensus-kv-store.ts';
import { createGhostdagEngine, type BlockId, type GhostdagEngine } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { asWitnessVerifier, type WitnessVerifier } from '../crypto/witness-check.ts';
import { nobleVerifier } from '../crypto/verifier.ts';
import type { KvStore } from '../storage/kv.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import type { IndexedBlock } from './block-index.ts';
import { consensusCacheEntries } from './cache-budget.ts';
import { openStoredChain } from './chain-open.ts';
import { chainKeys, storedTips } from './chain-store.ts';
import type { BlockAcceptedEvent, BlockValidatedEvent, ChainOptions, FinalityConflictEvent } from './chain-types.ts';
import type { BatchWriter } from './commit-block.ts';
import type { CommitmentDag } from './header-commitments.ts';
import { createInvalidBlocks, type InvalidBlocks } from './invalid-blocks.ts';
import { createOrphanPool, type OrphanPool } from './orphan-pool.ts';
import { createPendingStore } from './pending-store.ts';
import { openPruner, type Pruner } from './pruner.ts';
import type { SelectedChainIndex } from './selected-chain.ts';
import type { ChainStateMachine } from './state-port.ts';
import { createStoredBlockIndex, type StoredBlockIndex } from './stored-block-index.ts';
import { TrustedDataError } from './trusted-errors.ts';
import { importTrustedData, prepareJoin, type JoinPlan } from './trusted-import.ts';

export interface ChainState {
  readonly params: NetworkParams;
  readonly clock: Clock;
  readonly options: ChainOptions;
  /** Body validation's synchronous witness verifier (the verification cache the preverify hook fills, on a node). */
  readonly verifier: WitnessVerifier;
  /** Reads see every batch still in flight: block N+1 is validated while block N's rows are being committed. */
  readonly store: KvStore;
  readonly engine: GhostdagEngine;
  readonly index: StoredBlockIndex;
  readonly tips: Map<BlockId, Uint8Array>;
  readonly orphans: OrphanPool;
  readonly invalid: InvalidBlocks;
  readonly listeners: Set<(event: BlockAcceptedEvent) => void>;
  readonly validatedListeners: Set<(event: BlockValidatedEvent) => void>;
  readonly conflictListeners: Set<(event: FinalityConflictEvent) => void>;
  readonly selectedChain: SelectedChainIndex;
  readonly writer: BatchWriter;
  readonly genesis: IndexedBlock;
  readonly replayedAtOpen: number;
  /** The pruning point this chain joined at; undefined for a chain from genesis. */
  readonly joinedAt: IndexedBlock | undefined;
  /** The DAG as a version 2 header's commitments read it. */
  readonly commitments: CommitmentDag;
  /** Undefined on an archive; set once, right after the state is built (it reads the state). */
  pruner: Pruner | undefined;
  /** Built once the Chain exists (the machine is handed the Chain). */
  machine: ChainStateMachine | undefined;
  selectedTip: IndexedBlock;
  /** The finality point moves only with the selected tip: found once per tip, not once per block. */
  finalityMemo: { tip: BlockId; point: IndexedBlock } | undefined;
}

export interface OpenedChainState {
  readonly state: ChainState;
  readonly join: JoinPlan;
  /** The trusted blocks imported now (a join into an empty store), for the state machine's join rows. */
  readonly carried: readonly BlockId[];
}

/** Opens the store as a chain: a join's import first when one is due, then the stored DAG (chain-open.ts). */
export async function openChainState(options: ChainOptions): Promise<OpenedChainState> {
  const { params, clock } = options;
  const verifier = asWitnessVerifier(options.verifier ?? nobleVerifier) as WitnessVerifier;
  const store = createPendingStore(options.store);
  const join = await prepareJoin(store, options.join);
  if (join.joinedAt !== undefined && options.archive) {
    throw new TrustedDataError('import-state', 'a chain joined at a pruning point has nothing below it: it cannot run as an archive');
  }
  const entries = consensusCacheEntries(options.cacheMb);
  const consensus = openKvConsensusStore(store, entries);
  const engine = createGhostdagEngine({ k: params.ghostdagK, mergesetSizeLimit: params.mergesetSizeLimit, store: consensus });
  const index = createStoredBlockIndex(store, engine, (id) => consensus.numberOf(id)!, entries.blocks);
  const tips = new Map<BlockId, Uint8Array>(storedTips(store).map((hash) => [toHex(hash), hash]));
  const carried = join.importNow ? await importTrustedData({ params, store, engine, index, tips, nowMs: clock.nowMs(), verifier }, options.join!, options.joinProofHeaders) : [];
  const opened = await openStoredChain({ params, store, engine, index, tips, chainCacheEntries: entries.chain });
  const joinedAt = join.joinedAt === undefined ? undefined : index.get(join.joinedAt)!;
  const { selectedChain, writer, genesis, replayedAtOpen, selectedTip } = opened;
  const commitments = commitmentDag(params, store, engine, index, genesis, joinedAt);
  const state: ChainState = {
    params, clock, options, verifier, store, engine, index, tips, selectedChain, writer, genesis, replayedAtOpen, joinedAt, commitments, selectedTip,
    orphans: createOrphanPool(options.orphanCapacity),
    invalid: createInvalidBlocks(store),
    listeners: new Set(),
    validatedListeners: new Set(),
    conflictListeners: new Set(),
    pruner: undefined,
    machine: undefined,
    finalityMemo: undefined,
  };
  state.pruner = options.archive
    ? undefined
    : openPruner({
        params, store, engine, consensus, genesis,
        forgetBlock: index.forget,
        selectedTip: () => state.selectedTip,
        get: index.get,
        chainAt: (height) => blockAtHeightOf(state, height),
        machine: () => state.machine,
        onEvent: options.onPruning ?? (() => undefined),
      });
  return { state, join, carried };
}

/** The block at `height` on the virtual selected chain. */
export function blockAtHeightOf(state: ChainState, height: number): IndexedBlock | undefined {
  const id = height <= state.selectedTip.height ? state.selectedChain.at(height) : undefined;
  return id === undefined ? undefined : state.index.get(id);
}

function commitmentDag(
  params: NetworkParams,
  store: KvStore,
  engine: GhostdagEngine,
  index: StoredBlockIndex,
  genesis: IndexedBlock,
  joinedAt: IndexedBlock | undefined,
): CommitmentDag {
  // Found on first use, not at open: a reopen reads a few rows.
  let lowestChain: IndexedBlock | undefined;
  const lowestChainOf = (point: IndexedBlock) => (): IndexedBlock => {
    if (lowestChain === undefined) for (lowestChain = point; lowestChain.selectedParent; lowestChain = lowestChain.selectedParent);
    return lowestChain;
  };
  return {
    params, genesis, get: index.get, engine, ...(joinedAt ? { lowestChain: lowestChainOf(joinedAt) } : {}),
    // Header rows outlive their consensus rows below a pruned or joined chain's kept blocks (the proof's headers).
    headerOnly: (id) => {
      const bytes = store.get(chainKeys.header(fromHex(id)));
      return bytes === undefined ? undefined : decodeHeader(bytes);
    },
  };
}
