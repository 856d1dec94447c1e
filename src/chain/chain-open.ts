/**
 * Opening the chain's store: reads the stored tips and selected tip (a few rows, never every block) and checks that
 * they agree, or writes genesis into an empty store. A store written before the consensus tables is replayed first
 * (docs/storage.md "Upgrading").
 */
import { encodeBlock, type Block } from '../codec/block.ts';
import { decodeHeader, encodeHeader } from '../codec/header.ts';
import type { BlockId, GhostdagEngine } from '../consensus/ghostdag.ts';
import { genesisHash, type NetworkParams } from '../consensus/params.ts';
import { blockHash } from '../consensus/pow.ts';
import { assert } from '../errors.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { equalBytes, toHex } from '../util/bytes.ts';
import type { IndexedBlock } from './block-index.ts';
import { blockRows, chainKeys, storedBlockOrder } from './chain-store.ts';
import { createBatchWriter, indexBlock, type BatchWriter, type BlockIndexing } from './commit-block.ts';
import { workOfBits } from './header-in-context.ts';
import { createSelectedChainIndex, type SelectedChainIndex } from './selected-chain.ts';

export interface ChainOpenContext extends BlockIndexing {
  readonly params: NetworkParams;
  /** The chain's read-your-writes view (pending-store.ts). */
  readonly store: KvStore;
  readonly engine: GhostdagEngine;
  /** Entries the selected chain's cache may hold (cache-budget.ts). */
  readonly chainCacheEntries: number;
}

export interface OpenedChain {
  readonly selectedChain: SelectedChainIndex;
  readonly writer: BatchWriter;
  readonly selectedTip: IndexedBlock;
  readonly genesis: IndexedBlock;
  readonly replayedAtOpen: number;
}

export async function openStoredChain(ctx: ChainOpenContext): Promise<OpenedChain> {
  const { params, store, engine, index, tips } = ctx;
  const genesisId = toHex(genesisHash(params));
  const replayedAtOpen = await replayPreConsensusBlocks(ctx, genesisId);
  const storedTipId = engine.selectedTip();
  const selectedChain = createSelectedChainIndex(store, index.get, storedTipId === undefined ? 0 : index.get(storedTipId)!.height + 1, ctx.chainCacheEntries);
  const writer = createBatchWriter(store, selectedChain);
  let selectedTip: IndexedBlock;
  if (engine.size() === 0) {
    const header = params.genesis;
    const hash = blockHash(header);
    engine.addGenesis(genesisId, workOfBits(header.bits));
    const { entry, ops } = indexBlock(ctx, genesisId, hash, header);
    const genesisBlock: Block = { header, transactions: [] };
    const moved = selectedChain.moveTo(entry).ops;
    selectedTip = entry;
    await writer.write([...engine.drainWrites(), ...ops, ...blockRows(hash, encodeHeader(header), encodeBlock(genesisBlock)), ...moved]);
  } else {
    const storedTip = store.get(chainKeys.selectedTip);
    selectedTip = index.get(engine.selectedTip()!)!;
    // The tip row, the chain index and the engine's rows commit in the block's batch, so they must agree.
    assert(storedTip !== undefined && equalBytes(storedTip, selectedTip.hash), 'stored selected tip disagrees with the GHOSTDAG tip');
    assert(selectedChain.at(selectedTip.height) === selectedTip.id && selectedChain.at(selectedTip.height + 1) === undefined, 'stored chain index disagrees with the selected tip');
    assert(tips.has(selectedTip.id), 'stored tips do not hold the selected tip');
  }
  return { selectedChain, writer, selectedTip, genesis: index.get(genesisId) ?? detachedGenesis(params, genesisId), replayedAtOpen };
}

/** A chain joined at a pruning point above genesis does not store it; it still names it (locators, the ledger). */
function detachedGenesis(params: NetworkParams, id: BlockId): IndexedBlock {
  return { id, hash: blockHash(params.genesis), header: params.genesis, selectedParent: null, height: 0, skip: null, seq: -1 };
}

/**
 * A store written before the consensus tables has blocks past the engine's count: replay those once (and, after a
 * crash during that, the rest of them); a current store has none, and this reads one row. Returns the count.
 */
async function replayPreConsensusBlocks(ctx: ChainOpenContext, genesisId: BlockId): Promise<number> {
  const { params, store, engine, tips } = ctx;
  let replayed = 0;
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
    replayOps.push(...engine.drainWrites(), ...indexBlock(ctx, id, hash, header).ops);
    if (++replayed % 1_000 === 0) {
      await store.write(replayOps);
      replayOps = [];
    }
  }
  if (replayOps.length > 0) await store.write(replayOps);
  return replayed;
}
