/**
 * The block DAG of a full node: runs each block through the validation pipeline, commits it with its indexes and
 * consensus data (GHOSTDAG, reachability) in one atomic batch, keeps the tips, the selected tip and the virtual
 * selected chain (height → block) up to date, and holds orphans until their parents arrive.
 *
 * Memory is bounded: per-block data lives in the store and is read through bounded caches (docs/storage.md); opening
 * reads a few rows (counts, tips, selected tip), never every block.
 *
 * Concurrency: everything up to the store write runs synchronously, so calls are processed strictly in call order
 * without a lock; writes are pipelined (the store groups them) and a block is reported accepted only once its batch
 * is durable. A failed write poisons the chain: in-memory state may be ahead of disk, so the node must restart.
 */
import { decodeBlock, encodeBlock, type Block } from '../codec/block.ts';
import { decodeHeader, encodeHeader, type BlockHeader } from '../codec/header.ts';
import { createGhostdagEngine, type BlockId, type GhostdagData, type GhostdagEngine } from '../consensus/ghostdag.ts';
import { genesisHash, type NetworkParams } from '../consensus/params.ts';
import { blockHash, compactToTarget, workFromTarget } from '../consensus/pow.ts';
import { assert } from '../errors.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { equalBytes, fromHex, toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import type { IndexedBlock } from './block-index.ts';
import { blockRows, chainKeys, storedBlockOrder, storedTips, tipsRow } from './chain-store.ts';
import { createSelectedChainIndex } from './selected-chain.ts';
import { openKvConsensusStore } from '../consensus/consensus-kv-store.ts';
import type { ReadCacheStats } from '../storage/read-cache.ts';
import { consensusCacheEntries } from './cache-budget.ts';
import { createStoredBlockIndex } from './stored-block-index.ts';
import { expectedBits, pastMedianTimeMs } from './child-rules.ts';
import { BlockRuleError, ChainStorageError } from './errors.ts';
import { createOrphanPool, type OrphanPool } from './orphan-pool.ts';
import { createBoundedSet } from '../util/bounded-set.ts';
import { invalidBlocksMax } from '../limits.ts';
import { validateBodyInIsolation } from './validate-body.ts';
import { ghostdagOfParents, validateHeaderAgainstParent, validateHeaderInIsolation, validatePow } from './validate-header.ts';
import { asProofVerifier, type ProofVerifier } from '../crypto/proof-check.ts';
import { nobleVerifier, type SignatureVerifier } from '../crypto/verifier.ts';
import { createPendingStore } from './pending-store.ts';
import type { AccountLookup, BlockStateInput, ChainStateMachine, ChainStateMachineFactory } from './state-port.ts';
import { chooseVirtualParents, orderedMergesetOf } from './virtual.ts';
import { finalityPoint, mergeDepthRoot, mergeDepthViolations } from './depth-rules.ts';
import { compareHashesDefault } from '../consensus/ghostdag-order.ts';

export type AddBlockResult =
  | { readonly status: 'accepted'; readonly block: IndexedBlock; readonly selectedTipChanged: boolean }
  | { readonly status: 'duplicate'; readonly id: BlockId }
  | { readonly status: 'orphan'; readonly id: BlockId; readonly missing: readonly BlockId[] };

/** A block that would have moved the virtual selected chain off the finality point (refused, see depth-rules.ts). */
export interface FinalityConflictEvent {
  readonly block: BlockId;
  readonly finalityPoint: BlockId;
  readonly selectedTip: BlockId;
}

export interface BlockAcceptedEvent {
  readonly block: IndexedBlock;
  readonly ghostdag: GhostdagData;
  readonly selectedTipChanged: boolean;
  /** Blocks that left the virtual selected chain (a reorganisation), deepest last. */
  readonly removedFromChain: readonly BlockId[];
  /** Blocks that joined the virtual selected chain, ascending (the new selected tip last); empty when it did not move. */
  readonly addedToChain: readonly BlockId[];
}

/** What a would-be child of `parents` commits to: its GHOSTDAG data, DAA score, state root and post-mergeset accounts. */
export interface ChildState {
  readonly parents: readonly BlockId[];
  readonly ghostdag: GhostdagData;
  readonly mergeset: readonly BlockId[];
  readonly daaScore: number;
  readonly stateRoot: Uint8Array;
  readonly accounts: AccountLookup;
}

export interface Chain {
  readonly params: NetworkParams;
  readonly engine: GhostdagEngine;
  readonly genesis: IndexedBlock;
  /** Validates and stores a block. Throws BlockRuleError when a rule is broken; nothing is stored then. */
  addBlock(block: Block): Promise<AddBlockResult>;
  has(id: BlockId): boolean;
  /** A block this node refused by a consensus rule (remembered across restarts): never worth downloading again. */
  isInvalid(id: BlockId): boolean;
  get(id: BlockId): IndexedBlock | undefined;
  getBlock(id: BlockId): Block | undefined;
  ghostdag(id: BlockId): GhostdagData;
  selectedTip(): IndexedBlock;
  tips(): IndexedBlock[];
  /** The block at `height` on the virtual selected chain. */
  blockAtHeight(height: number): IndexedBlock | undefined;
  blockCount(): number;
  orphanCount(): number;
  /** The bits and the earliest timestamp a child of `selectedParent` must carry. */
  childRules(selectedParent: IndexedBlock): { bits: number; minTimestampMs: number };
  /** The virtual block's parents (the best tips, selected tip first) and its GHOSTDAG data (computed with unit work). */
  virtualParents(): { parents: BlockId[]; ghostdag: GhostdagData };
  /** A block's mergeset in consensus order (selected parent first), from its GHOSTDAG data. */
  orderedMergeset(data: GhostdagData): BlockId[];
  /** The state a block with these parents, mined by `miner`, commits to (null miner: the virtual view). */
  childState(parents: readonly BlockId[], miner: Uint8Array | null): ChildState;
  onBlockAccepted(listener: (event: BlockAcceptedEvent) => void): () => void;
  /** A security event: a heavier chain that leaves the finality point was refused (the node raises an alert). */
  onFinalityConflict(listener: (event: FinalityConflictEvent) => void): () => void;
  /** The virtual's finality point: the selected chain block finalityDepth blue score below the selected tip. */
  finalityPoint(): IndexedBlock;
  /** Resolves when every accepted block so far is durable. */
  settled(): Promise<void>;
  /** Each per-block cache's size and hit counts (/metrics). */
  cacheStats(): ReadCacheStats[];
  /** Blocks replayed at open: 0 unless the store predates the consensus tables (docs/storage.md "Upgrading"). */
  readonly replayedAtOpen: number;
}

export interface ChainOptions {
  readonly params: NetworkParams;
  readonly store: KvStore;
  readonly clock: Clock;
  readonly orphanCapacity?: number;
  /**
   * Verifies transaction proofs at body validation, synchronously: a Schnorr verifier (BIP340 batched through it,
   * other schemes inline) or a proof verifier. Default the @noble reference (the node passes a faster one).
   */
  readonly verifier?: SignatureVerifier | ProofVerifier;
  /**
   * Computes each block's state (src/state/ledger.ts through the port in state-port.ts). Without one the chain
   * is header-and-body only: every state root must equal genesis's (the empty state), as in DAG-only tests.
   */
  readonly stateMachine?: ChainStateMachineFactory;
  /** Megabytes the per-block caches may hold (`--cache-mb`); default cacheMbDefault (src/limits.ts). */
  readonly cacheMb?: number;
}

const workOfBits = (bits: number): bigint => workFromTarget(compactToTarget(bits));

export async function openChain(options: ChainOptions): Promise<Chain> {
  const { params, clock } = options;
  const verifier = asProofVerifier(options.verifier ?? nobleVerifier) as ProofVerifier;
  // Reads see every batch still in flight: block N+1 is validated while block N's rows are being committed.
  const store = createPendingStore(options.store);
  let machine: ChainStateMachine | undefined;
  const entries = consensusCacheEntries(options.cacheMb);
  const consensus = openKvConsensusStore(store, entries);
  const engine = createGhostdagEngine({ k: params.ghostdagK, mergesetSizeLimit: params.mergesetSizeLimit, store: consensus });
  const numberOf = (id: BlockId): number => consensus.numberOf(id)!;
  const index = createStoredBlockIndex(store, engine, numberOf, entries.blocks);
  // The DAG's tips by id, with their hashes for the tips row written in every block's batch.
  const tips = new Map<BlockId, Uint8Array>(storedTips(store).map((hash) => [toHex(hash), hash]));
  const orphans: OrphanPool = createOrphanPool(options.orphanCapacity);
  const listeners = new Set<(event: BlockAcceptedEvent) => void>();
  const conflictListeners = new Set<(event: FinalityConflictEvent) => void>();
  // Refused blocks: the recent ones in memory, every one in the store (chainKeys.invalid), so that a restarted node
  // neither downloads nor validates again a block it already refused. Each row cost its sender real PoW.
  const invalid = createBoundedSet<BlockId>(invalidBlocksMax);
  const isInvalid = (id: BlockId, hash: Uint8Array = fromHex(id)): boolean => invalid.has(id) || store.has(chainKeys.invalid(hash));
  const markInvalid = (id: BlockId, hash: Uint8Array, rule: string): void => {
    invalid.add(id);
    // Best effort: a marker lost to a crash only means validating that block once more.
    void store.write([{ type: 'put', key: chainKeys.invalid(hash), value: invalidRuleBytes(rule) }]).catch(() => undefined);
  };
  let selectedTip: IndexedBlock;
  let pendingWrite: Promise<void> = Promise.resolve();
  let fatal: Error | undefined;

  // GHOSTDAG's own order (blue work, then hash) so the selected tip is exactly the virtual's selected parent.
  const isBetterTip = (a: IndexedBlock, b: IndexedBlock): boolean => engine.compareBlocks(a.id, b.id) > 0;

  /** Indexes a block the engine just added; returns its entry and its index rows (skip, tips) for the batch. */
  const indexBlock = (id: BlockId, hash: Uint8Array, header: BlockHeader): { entry: IndexedBlock; ops: KvOp[] } => {
    const { entry, ops } = index.add(id, hash, header);
    for (const p of header.parents) tips.delete(toHex(p));
    tips.set(id, hash);
    ops.push(tipsRow(tips.values()));
    return { entry, ops };
  };

  const commit = (ops: KvOp[]): Promise<void> => {
    const write = store.write(ops).catch((cause: unknown) => {
      fatal ??= new ChainStorageError('a block batch failed to commit; restart the node', cause);
      throw fatal;
    });
    // The batch is in the read-your-writes view from here on.
    selectedChain.flushed();
    pendingWrite = write;
    return write;
  };

  // --- start: read the stored tips and selected tip, or write genesis ---
  const genesisId = toHex(genesisHash(params));
  // A store written before the consensus tables has blocks past the engine's count: replay those once (and, after a
  // crash during that, the rest of them); a current store has none, and this reads one row.
  let replayedAtOpen = 0;
  let replayOps: KvOp[] = [];
  for (const { seq, hash } of storedBlockOrder(store, engine.size())) {
    const headerBytes = store.get(chainKeys.header(hash));
    assert(headerBytes !== undefined && seq === engine.size(), `stored block ${toHex(hash)} (order ${seq}) has no header row or is out of order`);
    const header = decodeHeader(headerBytes);
    const id = toHex(hash);
    if (seq === 0) {
      assert(id === genesisId, `stored genesis ${id} is not ${params.name}'s genesis ${genesisId}`);
      tips.clear();
      engine.addGenesis(id, workOfBits(header.bits));
    } else {
      engine.addBlock(id, header.parents.map(toHex), workOfBits(header.bits));
    }
    replayOps.push(...engine.drainWrites(), ...indexBlock(id, hash, header).ops);
    if (++replayedAtOpen % 1_000 === 0) {
      await store.write(replayOps);
      replayOps = [];
    }
  }
  if (replayOps.length > 0) await store.write(replayOps);
  const storedTipId = engine.selectedTip();
  const selectedChain = createSelectedChainIndex(store, index.get, storedTipId === undefined ? 0 : index.get(storedTipId)!.height + 1, entries.chain);
  if (engine.size() === 0) {
    const header = params.genesis;
    const hash = blockHash(header);
    engine.addGenesis(genesisId, workOfBits(header.bits));
    const { entry, ops } = indexBlock(genesisId, hash, header);
    const genesisBlock: Block = { header, transactions: [] };
    const moved = selectedChain.moveTo(entry).ops;
    selectedTip = entry;
    await commit([...engine.drainWrites(), ...ops, ...blockRows(hash, encodeHeader(header), encodeBlock(genesisBlock)), ...moved]);
  } else {
    const storedTip = store.get(chainKeys.selectedTip);
    selectedTip = index.get(engine.selectedTip()!)!;
    // The tip row, the chain index and the engine's rows commit in the block's batch, so they must agree.
    assert(storedTip !== undefined && equalBytes(storedTip, selectedTip.hash), 'stored selected tip disagrees with the GHOSTDAG tip');
    assert(selectedChain.at(selectedTip.height) === selectedTip.id && selectedChain.at(selectedTip.height + 1) === undefined, 'stored chain index disagrees with the selected tip');
    assert(tips.has(selectedTip.id), 'stored tips do not hold the selected tip');
  }
  const genesis = index.get(genesisId)!;

  const childRules = (sp: IndexedBlock) => ({
    bits: expectedBits(params, sp),
    minTimestampMs: pastMedianTimeMs(params, sp) + 1,
  });

  // The finality point moves only with the selected tip: found once per tip, not once per block.
  let finalityMemo: { tip: BlockId; point: IndexedBlock } | undefined;
  const currentFinalityPoint = (): IndexedBlock => {
    if (finalityMemo?.tip !== selectedTip.id) finalityMemo = { tip: selectedTip.id, point: finalityPoint(selectedTip, params.finalityDepth) };
    return finalityMemo.point;
  };

  /** Bounded merge depth, then finality: both before anything is written (rusty-kaspa checks them in header-in-context). */
  const checkDepthRules = (id: BlockId, data: GhostdagData, sp: IndexedBlock): void => {
    const root = mergeDepthRoot(sp, data.blueScore, params.mergeDepth);
    const deep = mergeDepthViolations(engine, data, root.id);
    if (deep.length > 0) {
      throw new BlockRuleError('context.merge-depth.violated', `it merges ${deep.length} red block(s) (${deep[0]}…) outside the future of its merge depth root ${root.id}, and no blue it merges covers them`);
    }
    // Only a block that would become the selected tip can move the virtual selected chain.
    const tipWork = engine.get(selectedTip.id)!.blueWork;
    const leads = data.blueWork > tipWork || (data.blueWork === tipWork && compareHashesDefault(id, selectedTip.id) > 0);
    if (!leads) return;
    const point = currentFinalityPoint();
    if (point.id === sp.id || engine.isChainAncestorOf(point.id, sp.id)) return;
    const event: FinalityConflictEvent = { block: id, finalityPoint: point.id, selectedTip: selectedTip.id };
    for (const listener of conflictListeners) listener(event);
    throw new BlockRuleError('context.finality.violated', `its selected chain leaves the finality point ${point.id} (blue score ${point.header.blueScore}); the selected chain never reorganises below it`);
  };

  const process = (block: Block, hash: Uint8Array, id: BlockId): { entry: IndexedBlock; durable: Promise<void>; changed: boolean } => {
    const header = block.header;
    const transactions = validateBodyInIsolation(block, params, verifier);
    const encoded = encodeBlock(block);
    const parentIds = header.parents.map(toHex);
    const work = workOfBits(header.bits);
    const data = ghostdagOfParents(engine, parentIds, work);
    const sp = index.get(data.selectedParent!)!;
    validateHeaderAgainstParent(header, data, sp, params);
    checkDepthRules(id, data, sp);
    // Body in context: the state root (docs/design.md "Consensus") — the mergeset accepted onto the selected parent's state.
    const stateInput: BlockStateInput = { ghostdag: data, mergeset: orderedMergesetOf(engine, data), miner: header.miner, daaScore: header.daaScore };
    const prepared = machine?.prepareBlock(stateInput, { id, hash, header, transactions });
    const expectedRoot = prepared?.stateRoot ?? params.genesis.stateRoot;
    if (!equalBytes(header.stateRoot, expectedRoot)) {
      throw new BlockRuleError('body.state-root.mismatch', `state root ${toHex(header.stateRoot)}, the mergeset's acceptance gives ${toHex(expectedRoot)}`);
    }
    // --- commit: nothing above wrote anything ---
    engine.addBlock(id, parentIds, work);
    const indexed = indexBlock(id, hash, header);
    const entry = indexed.entry;
    const ops = [...engine.drainWrites(), ...indexed.ops, ...blockRows(hash, encodeHeader(header), encoded)];
    if (prepared) ops.push(...prepared.ops);
    let changed = false;
    let removed: IndexedBlock[] = [];
    let added: IndexedBlock[] = [];
    if (isBetterTip(entry, selectedTip)) {
      const move = selectedChain.moveTo(entry);
      ops.push(...move.ops);
      ({ removed, added } = move);
      if (machine) ops.push(...machine.chainMoved(removed, added, id));
      selectedTip = entry;
      changed = true;
    }
    const durable = commit(ops);
    const event: BlockAcceptedEvent = {
      block: entry,
      ghostdag: data,
      selectedTipChanged: changed,
      removedFromChain: removed.map((b) => b.id),
      addedToChain: added.map((b) => b.id),
    };
    durable.then(
      () => {
        for (const listener of listeners) listener(event);
      },
      () => undefined,
    );
    return { entry, durable, changed };
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
      if (fatal) throw fatal;
      const header = block.header;
      const target = validateHeaderInIsolation(header, params, clock.nowMs());
      const hash = blockHash(header);
      const id = toHex(hash);
      if (engine.has(id)) return { status: 'duplicate', id };
      if (isInvalid(id, hash)) throw new BlockRuleError('context.parents.invalid', `block ${id} failed validation before`);
      if (orphans.has(id)) return { status: 'orphan', id, missing: header.parents.map(toHex).filter((p) => !engine.has(p)) };
      validatePow(hash, target);
      if (header.parents.some((p) => isInvalid(toHex(p), p))) {
        markInvalid(id, hash, 'context.parents.invalid');
        throw new BlockRuleError('context.parents.invalid', 'a parent is a block that failed validation');
      }
      const missing = header.parents.map(toHex).filter((p) => !engine.has(p));
      if (missing.length > 0) {
        orphans.add(id, block, missing);
        return { status: 'orphan', id, missing };
      }
      let processed: ReturnType<typeof process>;
      try {
        processed = process(block, hash, id);
      } catch (error) {
        // Only rule failures of a block whose PoW checked out are remembered: they cost real work to make.
        if (error instanceof BlockRuleError) markInvalid(id, hash, error.rule);
        throw error;
      }
      const { entry, durable, changed } = processed;
      adoptOrphans(id);
      await durable;
      return { status: 'accepted', block: entry, selectedTipChanged: changed };
    },
    has: (id) => engine.has(id),
    isInvalid: (id) => !engine.has(id) && isInvalid(id),
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
    blockCount: () => engine.size(),
    orphanCount: () => orphans.size(),
    childRules,
    virtualParents() {
      // Tips whose merge would break bounded merge depth are left out (rusty-kaspa's remove_bounded_merge_breaking_parents).
      const chosen = chooseVirtualParents(engine, [...tips.keys()], params.maxParents);
      const root = mergeDepthRoot(index.get(chosen.ghostdag.selectedParent!)!, chosen.ghostdag.blueScore, params.mergeDepth);
      const deep = mergeDepthViolations(engine, chosen.ghostdag, root.id);
      if (deep.length === 0) return chosen;
      const kept = chosen.parents.filter((p) => !deep.some((red) => red === p || engine.isDagAncestorOf(red, p)));
      return chooseVirtualParents(engine, kept, params.maxParents);
    },
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
    settled: () => pendingWrite.catch(() => undefined),
    cacheStats: () => [...engine.cacheStats(), index.cacheStats(), selectedChain.stats()],
    replayedAtOpen,
  };
  machine = options.stateMachine?.({ chain, store });
  return chain;
}

const utf8 = new TextEncoder();
const invalidRuleBytes = (rule: string): Uint8Array => utf8.encode(rule);

const emptyAccounts: AccountLookup = { account: () => ({ balance: 0n, nonce: 0n, energy: 0n }) };

/** Parses a `0x`-prefixed or bare 64-digit hash into a BlockId. */
export function blockIdFromHex(hex: string): BlockId {
  const bare = hex.startsWith('0x') ? hex.slice(2) : hex;
  return toHex(fromHex(bare.toLowerCase()));
}
