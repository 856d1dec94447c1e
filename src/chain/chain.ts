/**
 * The block DAG of a full node: runs each block through the validation pipeline, commits it with its indexes and
 * consensus data (GHOSTDAG, reachability) in one atomic batch, keeps the tips, the selected tip and the virtual
 * selected chain (height → block) up to date, and holds orphans until their parents arrive.
 *
 * The pipeline's stages, each in its own file (docs/chain.md "Pipeline"): header in isolation and PoW with the
 * duplicate, refused and orphan gates (admit-block.ts), body in isolation (validate-body.ts), header in context
 * (header-in-context.ts), body in context (body-in-context.ts), then the commit (commit-block.ts). Opening the store
 * is chain-open.ts; this file wires them together and holds the chain's mutable state (the selected tip, listeners).
 *
 * Memory is bounded: per-block data lives in the store and is read through bounded caches (docs/storage.md); opening
 * reads a few rows (counts, tips, selected tip), never every block.
 *
 * Concurrency: everything up to the store write runs synchronously, so calls are processed strictly in call order
 * without a lock; writes are pipelined (the store groups them) and a block is reported accepted only once its batch
 * is durable. A failed write poisons the chain: in-memory state may be ahead of disk, so the node must restart.
 */
import { decodeBlock, encodeBlock, type Block } from '../codec/block.ts';
import { decodeHeader } from '../codec/header.ts';
import { createGhostdagEngine, type BlockId } from '../consensus/ghostdag.ts';
import { openKvConsensusStore } from '../consensus/consensus-kv-store.ts';
import { asProofVerifier, type ProofVerifier } from '../crypto/proof-check.ts';
import { nobleVerifier } from '../crypto/verifier.ts';
import { assert } from '../errors.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import { admitBlock } from './admit-block.ts';
import type { IndexedBlock } from './block-index.ts';
import { processBodyInContext } from './body-in-context.ts';
import { consensusCacheEntries } from './cache-budget.ts';
import { openStoredChain } from './chain-open.ts';
import { chainKeys, storedTips } from './chain-store.ts';
import { expectedBits, pastMedianTimeMs } from './child-rules.ts';
import { assembleBlockBatch } from './commit-block.ts';
import { finalityPoint } from './depth-rules.ts';
import { BlockRuleError } from './errors.ts';
import type { CommitmentDag } from './header-commitments.ts';
import { processHeaderInContext } from './header-in-context.ts';
import { createInvalidBlocks } from './invalid-blocks.ts';
import { createOrphanPool, type OrphanPool } from './orphan-pool.ts';
import { createPendingStore } from './pending-store.ts';
import { openPruner } from './pruner.ts';
import type { AccountLookup, BlockStateInput, ChainStateMachine } from './state-port.ts';
import { createStoredBlockIndex } from './stored-block-index.ts';
import { TrustedDataError } from './trusted-errors.ts';
import { checkAboveJoin, importTrustedData, joinedOps, prepareJoin } from './trusted-import.ts';
import { validateBodyInIsolation } from './validate-body.ts';
import { orderedMergesetOf, virtualParentsWithinMergeDepth } from './virtual.ts';
import type { BlockAcceptedEvent, Chain, ChainOptions, FinalityConflictEvent } from './chain-types.ts';

// The chain's public types, named where callers have always found them.
export type {
  AddBlockResult, BlockAcceptedEvent, BlockTimings, Chain, ChainOptions, ChildState, FinalityConflictEvent,
} from './chain-types.ts';

export async function openChain(options: ChainOptions): Promise<Chain> {
  const { params, clock } = options;
  const verifier = asProofVerifier(options.verifier ?? nobleVerifier) as ProofVerifier;
  // Reads see every batch still in flight: block N+1 is validated while block N's rows are being committed.
  const store = createPendingStore(options.store);
  const join = await prepareJoin(store, options.join);
  if (join.joinedAt !== undefined && options.archive) {
    throw new TrustedDataError('import-state', 'a chain joined at a pruning point has nothing below it: it cannot run as an archive');
  }
  let machine: ChainStateMachine | undefined;
  const entries = consensusCacheEntries(options.cacheMb);
  const consensus = openKvConsensusStore(store, entries);
  const engine = createGhostdagEngine({ k: params.ghostdagK, mergesetSizeLimit: params.mergesetSizeLimit, store: consensus });
  const numberOf = (id: BlockId): number => consensus.numberOf(id)!;
  const index = createStoredBlockIndex(store, engine, numberOf, entries.blocks);
  const tips = new Map<BlockId, Uint8Array>(storedTips(store).map((hash) => [toHex(hash), hash]));
  const orphans: OrphanPool = createOrphanPool(options.orphanCapacity);
  const listeners = new Set<(event: BlockAcceptedEvent) => void>();
  const conflictListeners = new Set<(event: FinalityConflictEvent) => void>();
  const invalid = createInvalidBlocks(store);

  const carried = join.importNow ? await importTrustedData({ params, store, engine, index, tips, nowMs: clock.nowMs(), verifier }, options.join!, options.joinProofHeaders) : [];
  const opened = await openStoredChain({ params, store, engine, index, tips, chainCacheEntries: entries.chain });
  const joinedAt = join.joinedAt === undefined ? undefined : index.get(join.joinedAt)!;
  const { selectedChain, writer, genesis, replayedAtOpen } = opened;
  let selectedTip = opened.selectedTip;
  // Found on first use, not at open: a reopen reads a few rows.
  let lowestChain: IndexedBlock | undefined;
  const lowestChainOf = (point: IndexedBlock) => (): IndexedBlock => {
    if (lowestChain === undefined) for (lowestChain = point; lowestChain.selectedParent; lowestChain = lowestChain.selectedParent);
    return lowestChain;
  };
  const commitments: CommitmentDag = {
    params, genesis, get: index.get, engine, ...(joinedAt ? { lowestChain: lowestChainOf(joinedAt) } : {}),
    // Header rows outlive their consensus rows below a pruned or joined chain's kept blocks (the proof's headers).
    headerOnly: (id) => {
      const bytes = store.get(chainKeys.header(fromHex(id)));
      return bytes === undefined ? undefined : decodeHeader(bytes);
    },
  };
  const pruner = options.archive
    ? undefined
    : openPruner({
        params,
        store,
        engine,
        consensus,
        forgetBlock: index.forget,
        selectedTip: () => selectedTip,
        get: index.get,
        chainAt: (height) => chain.blockAtHeight(height),
        genesis,
        machine: () => machine,
        onEvent: options.onPruning ?? (() => undefined),
      });

  const childRules = (sp: IndexedBlock) => ({
    bits: expectedBits(params, sp),
    minTimestampMs: pastMedianTimeMs(params, sp) + 1,
  });

  // The finality point moves only with the selected tip: found once per tip, not once per block.
  let finalityMemo: { tip: BlockId; point: IndexedBlock } | undefined;
  const currentFinalityPoint = (): IndexedBlock => {
    if (finalityMemo?.tip !== selectedTip.id) {
      let point = finalityPoint(selectedTip, params.finalityDepth);
      // A joined chain knows nothing below its pruning point, and every block it accepts has it on its chain.
      if (joinedAt && point.header.blueScore < joinedAt.header.blueScore) point = joinedAt;
      finalityMemo = { tip: selectedTip.id, point };
    }
    return finalityMemo.point;
  };

  /** The stages after PoW, in order; throws at the first broken rule, before anything is written. */
  const process = (block: Block, hash: Uint8Array, id: BlockId): { entry: IndexedBlock; durable: Promise<void>; changed: boolean; stages: number[] } => {
    const header = block.header;
    const t0 = performance.now();
    // Cheap, and before anything reads the truncated past below a joined chain's point.
    if (joinedAt) checkAboveJoin(engine, joinedAt.id, header.parents.map(toHex));
    const transactions = validateBodyInIsolation(block, params, verifier);
    const encoded = encodeBlock(block);
    const t1 = performance.now();
    const inContext = processHeaderInContext({ params, engine, index, commitments, selectedTip, finalityPoint: currentFinalityPoint, conflictListeners }, id, header);
    const t2 = performance.now();
    const prepared = processBodyInContext({ params, engine, machine }, { id, hash, header, transactions, ghostdag: inContext.ghostdag });
    const t3 = performance.now();
    // --- commit: nothing above wrote anything ---
    const { entry, ops, event } = assembleBlockBatch(
      { engine, index, tips, selectedChain, machine, selectedTip },
      { id, hash, header, encoded, parentIds: inContext.parentIds, work: inContext.work, ghostdag: inContext.ghostdag, prepared },
    );
    if (event.selectedTipChanged) {
      selectedTip = entry;
      if (pruner) ops.push(...pruner.tipMoved(entry));
    }
    const durable = writer.write(ops);
    durable.then(
      () => {
        for (const listener of listeners) listener(event);
        pruner?.kick();
      },
      () => undefined,
    );
    return { entry, durable, changed: event.selectedTipChanged, stages: [t1 - t0, t2 - t1, t3 - t2, t3] };
  };

  /** Children that were waiting for `parentId` get their turn; their failures are theirs alone. */
  const adoptOrphans = (parentId: BlockId): void => {
    for (const orphan of orphans.takeChildrenOf(parentId)) {
      void chain.addBlock(orphan.block).catch(() => undefined);
    }
  };

  const chain: Chain = {
    params,
    engine,
    genesis,
    async addBlock(block) {
      const fatal = writer.fatal();
      if (fatal) throw fatal;
      let admission = admitBlock({ params, nowMs: clock.nowMs(), engine, invalid, orphans }, block);
      if (admission.status !== 'admitted') return admission;
      const began = performance.now();
      if (options.preverify) {
        await options.preverify(block);
        // Other blocks moved on meanwhile (this one may have come in twice): admit again, atomically with process().
        const fatalSince = writer.fatal();
        if (fatalSince) throw fatalSince;
        admission = admitBlock({ params, nowMs: clock.nowMs(), engine, invalid, orphans }, block);
        if (admission.status !== 'admitted') return admission;
      }
      const { id, hash } = admission;
      let processed: ReturnType<typeof process>;
      try {
        processed = process(block, hash, id);
      } catch (error) {
        // Only rule failures of a block whose PoW checked out are remembered: they cost real work to make.
        if (error instanceof BlockRuleError) invalid.mark(id, hash, error.rule);
        throw error;
      }
      const { entry, durable, changed, stages } = processed;
      adoptOrphans(id);
      await durable;
      if (options.onBlockTimings) {
        const [bodyMs, headerMs, acceptanceMs, acceptedAt] = stages as [number, number, number, number];
        const now = performance.now();
        const totalMs = now - began;
        const preverifyMs = totalMs - (now - acceptedAt) - bodyMs - headerMs - acceptanceMs;
        options.onBlockTimings({ id, transactions: block.transactions.length, preverifyMs, bodyMs, headerMs, acceptanceMs, commitMs: now - acceptedAt, totalMs });
      }
      return { status: 'accepted', block: entry, selectedTipChanged: changed };
    },
    has: (id) => engine.has(id),
    isInvalid: (id) => !engine.has(id) && invalid.has(id),
    get: (id) => index.get(id),
    getBlock(id) {
      const entry = index.get(id);
      if (!entry) return undefined;
      const bytes = store.get(chainKeys.block(entry.hash));
      return bytes ? decodeBlock(bytes) : undefined;
    },
    ghostdag(id) {
      const data = engine.get(id);
      assert(data !== undefined, `no GHOSTDAG data for ${id}`);
      return data;
    },
    selectedTip: () => selectedTip,
    tips: () => [...tips.keys()].map((id) => index.get(id)!),
    blockAtHeight(height) {
      const id = height <= selectedTip.height ? selectedChain.at(height) : undefined;
      return id === undefined ? undefined : index.get(id);
    },
    // A joined chain's engine counts its virtual origin too.
    blockCount: () => engine.size() - (joinedAt ? 1 : 0),
    orphanCount: () => orphans.size(),
    childRules,
    virtualParents: () => virtualParentsWithinMergeDepth(engine, index.get, [...tips.keys()], params),
    orderedMergeset: (data) => orderedMergesetOf(engine, data),
    childState(parents, miner) {
      const ghostdag = engine.computeBlock(parents, 1n);
      const mergeset = orderedMergesetOf(engine, ghostdag);
      const daaScore = index.get(ghostdag.selectedParent!)!.header.daaScore + ghostdag.mergesetSize;
      const input: BlockStateInput = { ghostdag, mergeset, miner, daaScore };
      const preview = machine?.previewBlock(input) ?? { stateRoot: params.genesis.stateRoot.slice(), accounts: emptyAccounts };
      return { parents: [...parents], ghostdag, mergeset, daaScore, ...preview };
    },
    onBlockAccepted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onFinalityConflict(listener) {
      conflictListeners.add(listener);
      return () => conflictListeners.delete(listener);
    },
    finalityPoint: currentFinalityPoint,
    settled: writer.settled,
    cacheStats: () => [...engine.cacheStats(), index.cacheStats(), selectedChain.stats()],
    replayedAtOpen,
    pruning: () => pruner?.status(),
    isPruned: (id) => pruner?.isPruned(id) ?? false,
    pruningSettled: async () => {
      await writer.settled();
      await pruner?.idle();
    },
    stopPruning: async () => pruner?.stop(),
    joinedAt,
    pruningPointRecord(id) {
      const entry = index.get(id);
      return entry === undefined ? undefined : machine?.pruningPointRecord?.(entry);
    },
  };
  machine = options.stateMachine?.({ chain, store, pruning: pruner !== undefined });
  // Last of a join: the state machine's rows for the point, then the marker (a crash before it starts over).
  if (join.importNow) {
    const stateOps = machine?.joinAt?.(joinedAt!, options.join!.stateRecord, carried.map((id) => index.get(id)!)) ?? [];
    await writer.write(joinedOps(joinedAt!, stateOps));
  }
  if (pruner) {
    // A store written with other parameters, or by an archive, gets its pruning point now; a round owed since the
    // last run (a crash, a shutdown mid-round) resumes.
    const moved = pruner.tipMoved(selectedTip);
    if (moved.length > 0) await writer.write(moved);
    pruner.kick();
  }
  return chain;
}

const emptyAccounts: AccountLookup = { account: () => ({ balance: 0n, nonce: 0n, energy: 0n }) };

/** Parses a `0x`-prefixed or bare 64-digit hash into a BlockId. */
export function blockIdFromHex(hex: string): BlockId {
  const bare = hex.startsWith('0x') ? hex.slice(2) : hex;
  return toHex(fromHex(bare.toLowerCase()));
}
