/**
 * The block DAG of a full node: runs each block through the validation pipeline, commits it with its indexes and
 * consensus data (GHOSTDAG, reachability) in one atomic batch, keeps the tips, the selected tip and the virtual
 * selected chain (height → block) up to date, and holds orphans until their parents arrive.
 *
 * The pipeline's stages, each in its own file (docs/chain.md "Pipeline"): header in isolation and PoW with the
 * duplicate, refused and orphan gates (admit-block.ts), body in isolation (validate-body.ts), header in context
 * (header-in-context.ts), body in context (body-in-context.ts), then the commit (commit-block.ts). Opening the store
 * is chain-open.ts. The chain's state is one ChainState (chain-state.ts, which opens it); its operations are free
 * functions over it: add-block.ts (the pipeline), chain-reads.ts (tips, the selected chain, child state),
 * chain-join.ts (the end of a join, the pruner's resume). This file wires them into the public Chain.
 *
 * Memory is bounded: per-block data lives in the store and is read through bounded caches (docs/storage.md); opening
 * reads a few rows (counts, tips, selected tip), never every block.
 *
 * Concurrency: everything up to the store write runs synchronously, so calls are processed strictly in call order
 * without a lock; writes are pipelined (the store groups them) and a block is reported accepted only once its batch
 * is durable. A failed write poisons the chain: in-memory state may be ahead of disk, so the node must restart.
 */
import type { BlockId } from '../consensus/ghostdag.ts';
import { fromHex, strip0x, toHex } from '../util/bytes.ts';
import { addBlock } from './add-block.ts';
import { finishOpen } from './chain-join.ts';
import { childRules, childState, finalityPointOf, ghostdagOf, listen, pruningPointRecord, storedBlock, tipBlocks } from './chain-reads.ts';
import { blockAtHeightOf, openChainState } from './chain-state.ts';
import type { Chain, ChainOptions } from './chain-types.ts';
import { orderedMergesetOf, virtualParentsWithinMergeDepth } from './virtual.ts';

// The chain's public types, named where callers have always found them.
export type {
  AddBlockResult, BlockAcceptedEvent, BlockTimings, Chain, ChainOptions, FinalityConflictEvent,
} from './chain-types.ts';

export async function openChain(options: ChainOptions): Promise<Chain> {
  const { state, join, carried } = await openChainState(options);
  const { params, engine, index, writer } = state;
  const chain: Chain = {
    params,
    engine,
    genesis: state.genesis,
    addBlock: (block) => addBlock(state, block),
    has: (id) => engine.has(id),
    isInvalid: (id) => !engine.has(id) && state.invalid.has(id),
    get: (id) => index.get(id),
    getBlock: (id) => storedBlock(state, id),
    ghostdag: (id) => ghostdagOf(state, id),
    selectedTip: () => state.selectedTip,
    tips: () => tipBlocks(state),
    blockAtHeight: (height) => blockAtHeightOf(state, height),
    // A joined chain's engine counts its virtual origin too.
    blockCount: () => engine.size() - (state.joinedAt ? 1 : 0),
    orphanCount: () => state.orphans.size(),
    childRules: (selectedParent) => childRules(params, selectedParent),
    virtualParents: () => virtualParentsWithinMergeDepth(engine, index.get, [...state.tips.keys()], params),
    orderedMergeset: (data) => orderedMergesetOf(engine, data),
    childState: (parents, miner) => childState(state, parents, miner),
    onBlockAccepted: (listener) => listen(state.listeners, listener),
    onBlockValidated: (listener) => listen(state.validatedListeners, listener),
    onFinalityConflict: (listener) => listen(state.conflictListeners, listener),
    finalityPoint: () => finalityPointOf(state),
    settled: writer.settled,
    cacheStats: () => [...engine.cacheStats(), index.cacheStats(), state.selectedChain.stats()],
    replayedAtOpen: state.replayedAtOpen,
    pruning: () => state.pruner?.status(),
    isPruned: (id) => state.pruner?.isPruned(id) ?? false,
    pruningSettled: async () => {
      await writer.settled();
      await state.pruner?.idle();
    },
    stopPruning: async () => state.pruner?.stop(),
    joinedAt: state.joinedAt,
    pruningPointRecord: (id) => pruningPointRecord(state, id),
  };
  state.machine = options.stateMachine?.({ chain, store: state.store, pruning: state.pruner !== undefined });
  await finishOpen(state, join, options.join, carried);
  return chain;
}

/** Parses a `0x`-prefixed or bare 64-digit hash into a BlockId. */
export function blockIdFromHex(hex: string): BlockId {
  return toHex(fromHex(strip0x(hex).toLowerCase()));
}
