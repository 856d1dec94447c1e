/**
 * The header phase of a pruning round (docs/storage.md "Pruning"; rusty-kaspa's pruning processor): after the bodies
 * and the state machine's rows, a block's header and consensus rows (H, K, S, D, N, O, C) go too, unless the node
 * still reads them. The keep set K at pruning point P:
 *
 *   - the chain blocks from the trusted-data floor to P and every member of their mergesets: buildTrustedData builds
 *     T from them, and the DAA window, past median time, merge depth and colouring of the blocks above P read no
 *     deeper (trustedChainDepth covers them, as for a chain that joined with nothing below T);
 *   - the chain from the reachability reindex root up, where that is lower (reindexing reads it);
 *   - on a version 2 network, the pruning point before P (a block mined just before the point moved commits it,
 *     header-commitments.ts), P's level parents (every level-parent candidate below P a new block can have is one)
 *     and the headers of P's pruning proof (the next proof's level lists reach back through them);
 *   - genesis.
 *
 * A kept block keeps all its rows. A deleted block a kept block's GHOSTDAG record names keeps its order row (engine
 * data names it by hash), and one in a kept block's future covering set keeps its reachability node (a reachability
 * query about the kept block reads it); nothing else. The round's `from` (the `pruned-through` block until the
 * round's last batch) goes in that batch. Rows:
 *
 *   M | header-pruned → u64 height  the mergesets of the chain blocks at heights ≤ this are gone, K aside (for good)
 *   M | header-round  → floor height, then block numbers: K below the floor, during a phase (so a resumed phase
 *                       keeps what the first attempt decided, never rebuilding the proof over half-deleted rows)
 *   M | header-kept   → block numbers whose rows the last phase kept below its floor: the next phase deletes them
 *                       unless it keeps them again
 *
 * Batches hold at most pruneBatchOpsMax deletes; every one is atomic, so a kill -9 resumes from the rows.
 */
import { type BlockId, type GhostdagEngine, trustedOriginId } from '../consensus/ghostdag.ts';
import { consensusKeys, readU64be, u64be } from '../consensus/consensus-rows.ts';
import type { ConsensusStore } from '../consensus/consensus-store.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { blockHash } from '../consensus/pow.ts';
import { pruneBatchOpsMax } from '../limits.ts';
import { buildPruningProof } from '../pruning-proof/build-proof.ts';
import { proofParamsOf } from '../pruning-proof/level-dag.ts';
import { ProofBuildError } from '../pruning-proof/proof-errors.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { concatBytes, equalBytes, fromHex, toHex } from '../util/bytes.ts';
import { chainAncestorAt, type IndexedBlock } from './block-index.ts';
import { chainKeys } from './chain-store.ts';
import { previousPruningPoint } from './pruning-point.ts';
import { commonChainBlock, trustedChainDepth } from './trusted-data.ts';

export interface HeaderPruningContext {
  readonly params: NetworkParams;
  readonly store: KvStore;
  readonly engine: GhostdagEngine;
  readonly consensus: ConsensusStore;
  readonly get: (id: BlockId) => IndexedBlock | undefined;
  readonly chainAt: (height: number) => IndexedBlock | undefined;
  readonly selectedTip: () => IndexedBlock;
  readonly genesis: IndexedBlock;
  /** Drops a deleted block from the read caches (after its batch is written). */
  readonly forget: (block: number, id: BlockId) => void;
}

const meta = (name: string): Uint8Array => concatBytes(Uint8Array.of(0x4d), new TextEncoder().encode(name));
const headerPruningKeys = {
  pruned: meta('header-pruned'),
  round: meta('header-round'),
  kept: meta('header-kept'),
};

const encodeNumbers = (numbers: Iterable<number>): Uint8Array => concatBytes(...[...numbers].map(u64be));
const decodeNumbers = (bytes: Uint8Array | undefined): number[] => {
  const out: number[] = [];
  if (bytes) for (let at = 0; at < bytes.length; at += 8) out.push(readU64be(bytes.subarray(at, at + 8)));
  return out;
};

interface KeepSet {
  readonly floorHeight: number;
  /** Kept blocks by id (all rows). */
  readonly blocks: Set<BlockId>;
  /** Kept blocks below the floor's mergesets (the numbers `header-round` and `header-kept` list). */
  readonly below: Set<number>;
  /** Deleted blocks' rows that stay: order rows named by kept records, reachability nodes in kept covering sets. */
  readonly orderRows: Set<number>;
  readonly nodeRows: Set<number>;
}

/** The rows for the round's last batch, and what to do once it is written. */
export interface FinalRows {
  readonly ops: KvOp[];
  readonly written: () => void;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export function createHeaderPruning(ctx: HeaderPruningContext) {
  const { store, engine, consensus, params, genesis } = ctx;

  const mergesetIds = (chainBlock: IndexedBlock): BlockId[] => {
    const data = engine.get(chainBlock.id)!;
    return [...data.mergesetBlues, ...data.mergesetReds].filter((id) => id !== genesis.id && id !== trustedOriginId);
  };

  /** P's anticone within the chain: the mergesets of the chain blocks above it (as trusted-data.ts, less the virtual). */
  const anticoneOf = (point: IndexedBlock): BlockId[] => {
    const out: BlockId[] = [];
    const tip = ctx.selectedTip();
    for (let h = point.height + 1; h <= tip.height; h++) {
      for (const id of mergesetIds(ctx.chainAt(h)!)) {
        if (id !== point.id && !engine.isDagAncestorOf(id, point.id) && !engine.isDagAncestorOf(point.id, id)) out.push(id);
      }
    }
    return out;
  };

  /** The blocks a proof and new blocks' level parents read below the floor (version 2 only). */
  const versionTwoKeeps = (point: IndexedBlock): BlockId[] | undefined => {
    if (params.headerVersion !== 2) return [];
    const out: BlockId[] = [previousPruningPoint(params, point, genesis).id];
    for (const run of point.header.levelParents ?? []) for (const hash of run.parents) out.push(toHex(hash));
    try {
      const proof = buildPruningProof({ header: (id) => ctx.get(id)?.header }, point.id, proofParamsOf(params));
      for (const level of proof.levels) for (const header of level) out.push(toHex(blockHash(header)));
    } catch (error) {
      // A store that cannot build its proof (a joined chain below its trusted set) keeps its headers this round.
      if (error instanceof ProofBuildError) return undefined;
      throw error;
    }
    return out;
  };

  const keepSet = (point: IndexedBlock, floorHeight: number, below: Iterable<number>): KeepSet => {
    const blocks = new Set<BlockId>([genesis.id, point.id]);
    for (let h = floorHeight; h <= point.height; h++) {
      const chainBlock = ctx.chainAt(h);
      if (chainBlock === undefined) continue;
      blocks.add(chainBlock.id);
      for (const id of mergesetIds(chainBlock)) blocks.add(id);
    }
    const belowSet = new Set<number>();
    for (const n of below) {
      belowSet.add(n);
      blocks.add(consensus.idOf(n));
    }
    // P's anticone and future are never walked, and what their records name lies above the floor: no need to list them.
    const orderRows = new Set<number>();
    const nodeRows = new Set<number>();
    for (const id of blocks) {
      const n = consensus.numberOf(id);
      if (n === undefined) continue;
      const record = consensus.ghostdag(n);
      for (const m of [record.selectedParent, ...record.parents, ...record.blues, ...record.reds]) if (m >= 0) orderRows.add(m);
      for (const m of consensus.node(n).fcs) nodeRows.add(m);
    }
    return { floorHeight, blocks, below: belowSet, orderRows, nodeRows };
  };

  /** K at a new point: decided once per phase and written in the phase's first batch. Undefined: keep everything. */
  const decide = (point: IndexedBlock): { floorHeight: number; below: number[] } | undefined => {
    const extra = versionTwoKeeps(point);
    if (extra === undefined) return undefined;
    const common = commonChainBlock({ engine }, point, anticoneOf(point));
    // Reachability reindexing reads the chain from the reindex root up (it trails the tip by reindexDepth, far above
    // the point on a real network; below it only on a test's tiny pruning depth).
    const rootHeight = consensus.reindexRoot < 0 ? 0 : consensus.node(consensus.reindexRoot).height;
    const floor = chainAncestorAt(point, Math.max(0, Math.min(common.height - trustedChainDepth(params), rootHeight)));
    const chainKept = keepSet(point, floor.height, []).blocks;
    const below = new Set<number>();
    for (const id of extra) {
      const n = consensus.numberOf(id);
      if (n !== undefined && !chainKept.has(id)) below.add(n);
    }
    return { floorHeight: floor.height, below: [...below] };
  };

  /** The ops deleting block `n`'s rows, but the order row or node another kept block reads. */
  const deleteOps = (n: number, hash: Uint8Array, keep: KeepSet, chainHeight: number | undefined): KvOp[] => {
    const ops: KvOp[] = [
      { type: 'del', key: chainKeys.header(hash) },
      { type: 'del', key: chainKeys.block(hash) },
      { type: 'del', key: chainKeys.skip(hash) },
      { type: 'del', key: consensusKeys.number(hash) },
      { type: 'del', key: consensusKeys.ghostdag(n) },
    ];
    if (!keep.orderRows.has(n)) ops.push({ type: 'del', key: consensusKeys.order(n) });
    if (!keep.nodeRows.has(n)) ops.push({ type: 'del', key: consensusKeys.node(n) });
    if (chainHeight !== undefined) ops.push({ type: 'del', key: chainKeys.chain(chainHeight) });
    return ops;
  };

  /** The rows of a block a previous phase kept (or partly kept), now that this one does not. */
  const deleteKeptBefore = (n: number, keep: KeepSet): KvOp[] => {
    const hash = store.get(consensusKeys.order(n));
    if (hash === undefined) {
      return keep.nodeRows.has(n) ? [] : [{ type: 'del', key: consensusKeys.node(n) }];
    }
    if (keep.blocks.has(toHex(hash))) return [];
    // A chain block's index row goes with it; its height is its tree height, when the node is still there.
    const height = store.get(consensusKeys.number(hash)) === undefined ? undefined : ctx.get(toHex(hash))?.height;
    const onChain = height !== undefined && equalBytes(store.get(chainKeys.chain(height)) ?? new Uint8Array(), hash);
    return deleteOps(n, hash, keep, onChain ? height : undefined);
  };

  const firstChainHeight = (): number => {
    for (const [key] of store.entries({ prefix: chainKeys.chainPrefix, start: chainKeys.chain(1) })) return readU64be(key.subarray(1));
    return 1;
  };

  return {
    /**
     * Deletes what falls out of K on moving to `point` from `previous` (the pruned-through block); returns the rows
     * for the round's last batch (the caller adds its own), or undefined when `stopped()` cut the phase short.
     */
    async run(point: IndexedBlock, previous: IndexedBlock, stopped: () => boolean): Promise<FinalRows | undefined> {
      let roundRow = store.get(headerPruningKeys.round);
      if (roundRow === undefined) {
        const decided = decide(point);
        if (decided === undefined) return { ops: [], written: () => undefined };
        roundRow = concatBytes(u64be(decided.floorHeight), encodeNumbers(decided.below));
        await store.write([{ type: 'put', key: headerPruningKeys.round, value: roundRow }]);
      }
      const [floorHeight, ...below] = decodeNumbers(roundRow);
      const keep = keepSet(point, floorHeight!, below);
      const prunedRow = store.get(headerPruningKeys.pruned);
      let ops: KvOp[] = [];
      let forgotten: [number, BlockId][] = [];
      const flush = async (extra: KvOp[]): Promise<void> => {
        await store.write([...ops, ...extra]);
        for (const [n, id] of forgotten) ctx.forget(n, id);
        ops = [];
        forgotten = [];
        await yieldToEventLoop();
      };
      const start = prunedRow === undefined ? firstChainHeight() : readU64be(prunedRow) + 1;
      for (let h = start; h < floorHeight!; h++) {
        if (stopped()) return undefined;
        const chainBlock = ctx.chainAt(h);
        if (chainBlock !== undefined) {
          for (const id of mergesetIds(chainBlock)) {
            if (keep.blocks.has(id) || id === previous.id) continue;
            const n = consensus.numberOf(id);
            if (n === undefined) continue;
            const isParent = id === chainBlock.selectedParent?.id;
            ops.push(...deleteOps(n, fromHex(id), keep, isParent ? h - 1 : undefined));
            forgotten.push([n, id]);
          }
        }
        if (ops.length >= pruneBatchOpsMax || h === floorHeight! - 1) await flush([{ type: 'put', key: headerPruningKeys.pruned, value: u64be(h) }]);
      }
      // Deletes are idempotent: a phase resumed after a kill -9 may redo these.
      for (const n of decodeNumbers(store.get(headerPruningKeys.kept))) {
        if (stopped()) return undefined;
        const id = store.get(consensusKeys.order(n));
        if (keep.below.has(n) || (id !== undefined && toHex(id) === previous.id)) continue;
        ops.push(...deleteKeptBefore(n, keep));
        if (id !== undefined) forgotten.push([n, toHex(id)]);
        if (ops.length >= pruneBatchOpsMax) await flush([]);
      }
      if (ops.length > 0) await flush([]);
      // Rows of deleted blocks kept for a kept block's sake (never a stored block's: one above P is no business here).
      const partial: number[] = [];
      for (const n of new Set([...keep.orderRows, ...keep.nodeRows])) {
        const hash = store.get(consensusKeys.order(n));
        if (hash === undefined || store.get(consensusKeys.number(hash)) === undefined) partial.push(n);
      }
      const previousNumber = consensus.numberOf(previous.id);
      const dropPrevious =
        previousNumber !== undefined && !keep.blocks.has(previous.id) && previous.height < floorHeight!
          ? deleteOps(previousNumber, previous.hash, keep, ctx.chainAt(previous.height)?.id === previous.id ? previous.height : undefined)
          : [];
      return {
        ops: [
          ...dropPrevious,
          { type: 'put', key: headerPruningKeys.kept, value: encodeNumbers(new Set([...keep.below, ...partial])) },
          { type: 'del', key: headerPruningKeys.round },
        ],
        written: () => {
          if (dropPrevious.length > 0) ctx.forget(previousNumber!, previous.id);
        },
      };
    },
  };
}
