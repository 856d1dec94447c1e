/**
 * The commit stage, after every validation stage passed: the block is added to the GHOSTDAG engine and the block
 * index, and its whole batch is assembled here — the engine's rows, the index rows (skip, tips), the header and block
 * rows, the state machine's rows, and, when it becomes the selected tip, the selected chain's move with the state
 * machine's rows for it. Every row a block commits goes through `assembleBlockBatch` (genesis and the replay at open
 * use `indexBlock`); `createBatchWriter` then writes each batch as one atomic store write.
 */
import { encodeHeader, type BlockHeader } from '../codec/header.ts';
import type { BlockId, GhostdagData, GhostdagEngine } from '../consensus/ghostdag.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { toHex } from '../util/bytes.ts';
import type { IndexedBlock } from './block-index.ts';
import type { BlockAcceptedEvent } from './chain-types.ts';
import { blockRows, tipsRow } from './chain-store.ts';
import { ChainStorageError } from './errors.ts';
import type { SelectedChainIndex } from './selected-chain.ts';
import type { ChainStateMachine, PreparedBlockState } from './state-port.ts';
import type { StoredBlockIndex } from './stored-block-index.ts';

export interface BlockIndexing {
  readonly index: StoredBlockIndex;
  /** The DAG's tips by id, with their hashes for the tips row written in every block's batch. */
  readonly tips: Map<BlockId, Uint8Array>;
}

/** Indexes a block the engine just added; returns its entry and its index rows (skip, tips) for the batch. */
export function indexBlock(ctx: BlockIndexing, id: BlockId, hash: Uint8Array, header: BlockHeader): { entry: IndexedBlock; ops: KvOp[] } {
  const { entry, ops } = ctx.index.add(id, hash, header);
  for (const p of header.parents) ctx.tips.delete(toHex(p));
  ctx.tips.set(id, hash);
  ops.push(tipsRow(ctx.tips.values()));
  return { entry, ops };
}

export interface CommitContext extends BlockIndexing {
  readonly engine: GhostdagEngine;
  readonly selectedChain: SelectedChainIndex;
  readonly machine: ChainStateMachine | undefined;
  readonly selectedTip: IndexedBlock;
}

/** A block that passed every validation stage, with what those stages computed. */
export interface ValidatedBlock {
  readonly id: BlockId;
  readonly hash: Uint8Array;
  readonly header: BlockHeader;
  /** The block's encoding (the `B` row). */
  readonly encoded: Uint8Array;
  readonly parentIds: readonly BlockId[];
  readonly work: bigint;
  readonly ghostdag: GhostdagData;
  /** The state machine's rows from body in context; none without a state machine. */
  readonly prepared: PreparedBlockState | undefined;
}

export interface BlockBatch {
  readonly entry: IndexedBlock;
  /** Everything the block commits, in write order. */
  readonly ops: KvOp[];
  /** What listeners hear once the batch is durable; `selectedTipChanged` says the block is the new selected tip. */
  readonly event: BlockAcceptedEvent;
}

// GHOSTDAG's own order (blue work, then hash) so the selected tip is exactly the virtual's selected parent.
const isBetterTip = (engine: GhostdagEngine, a: IndexedBlock, b: IndexedBlock): boolean => engine.compareBlocks(a.id, b.id) > 0;

/** Adds the block to the engine and the index and assembles its batch; nothing before this wrote anything. */
export function assembleBlockBatch(ctx: CommitContext, block: ValidatedBlock): BlockBatch {
  const { engine, selectedChain, machine } = ctx;
  const { id, hash, header } = block;
  engine.addBlock(id, block.parentIds, block.work);
  const indexed = indexBlock(ctx, id, hash, header);
  const entry = indexed.entry;
  const ops = [...engine.drainWrites(), ...indexed.ops, ...blockRows(hash, encodeHeader(header), block.encoded)];
  if (block.prepared) ops.push(...block.prepared.ops);
  let changed = false;
  let removed: IndexedBlock[] = [];
  let added: IndexedBlock[] = [];
  if (isBetterTip(engine, entry, ctx.selectedTip)) {
    const move = selectedChain.moveTo(entry);
    ops.push(...move.ops);
    ({ removed, added } = move);
    if (machine) ops.push(...machine.chainMoved(removed, added, id));
    changed = true;
  }
  const event: BlockAcceptedEvent = {
    block: entry,
    ghostdag: block.ghostdag,
    selectedTipChanged: changed,
    removedFromChain: removed.map((b) => b.id),
    addedToChain: added.map((b) => b.id),
  };
  return { entry, ops, event };
}

export interface BatchWriter {
  /** Writes a batch; it is in the read-your-writes view as soon as this returns. */
  write(ops: KvOp[]): Promise<void>;
  /** Resolves when every batch so far is durable (or one failed). */
  settled(): Promise<void>;
  /** The error that poisoned the chain, once a write failed. */
  fatal(): Error | undefined;
}

/**
 * Writes are pipelined (the store groups them). A failed write poisons the chain: in-memory state may be ahead of
 * disk, so the node must restart.
 */
export function createBatchWriter(store: KvStore, selectedChain: SelectedChainIndex): BatchWriter {
  let pendingWrite: Promise<void> = Promise.resolve();
  let fatal: Error | undefined;
  return {
    write(ops) {
      const write = store.write(ops).catch((cause: unknown) => {
        fatal ??= new ChainStorageError('a block batch failed to commit; restart the node', cause);
        throw fatal;
      });
      // The batch is in the read-your-writes view from here on.
      selectedChain.flushed();
      pendingWrite = write;
      return write;
    },
    settled: () => pendingWrite.catch(() => undefined),
    fatal: () => fatal,
  };
}
