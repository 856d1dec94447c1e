/**
 * Where the GHOSTDAG engine keeps its per-block data (rusty-kaspa `model/stores/{ghostdag,reachability,relations}.rs`
 * behind reader interfaces): the interned block numbers, each block's GHOSTDAG record and reachability node, and the
 * engine's few global values (block count, selected tip, reindex root). Two backends: plain arrays
 * (`createMemoryConsensusStore`, for tests, vectors and the light client) and LMDB rows read through bounded caches
 * (`consensus-kv-store.ts`, the full node), whose writes are staged and handed to the block's batch by `drainWrites`.
 *
 * Blocks are dense numbers 0, 1, 2, … in insertion order (a topological order); records refer to blocks by number.
 */
import type { KvOp } from '../storage/kv.ts';
import type { ReadCacheStats } from '../storage/read-cache.ts';
import { UnknownBlockError } from './ghostdag-errors.ts';

/** Lowercase hex of the 32-byte block hash (or any string id in the vector tests). */
type BlockId = string;

/** A block's GHOSTDAG data by block number, as the algorithm reads it. Never changes once stored. */
export interface GhostdagRecord {
  readonly parents: readonly number[];
  readonly work: bigint;
  /** -1 for genesis. */
  readonly selectedParent: number;
  readonly blueScore: number;
  readonly blueWork: bigint;
  /** Mergeset blues: selected parent first, then the other blues in processing order. */
  readonly blues: readonly number[];
  readonly reds: readonly number[];
  /** Blues anticone sizes as seen from the block, as flat pairs [block, size, block, size, …]. */
  readonly anticoneSizes: readonly number[];
}

/**
 * A block's place in the reachability tree. `start`, `end`, `children` and `fcs` change as blocks arrive and the tree
 * is reindexed: whoever changes a node hands it back with `ConsensusStore.touchNode`.
 */
export interface ReachabilityNode {
  start: number;
  end: number;
  /** Tree parent = selected parent; -1 for the root (genesis). */
  readonly parent: number;
  /** Depth in the selected-parent tree (genesis 0). */
  readonly height: number;
  /** Tree children, ordered by interval start. */
  readonly children: number[];
  /** Future covering set: blocks that merged this one (outside their selected parent), ordered by interval start. */
  readonly fcs: number[];
}

export interface ConsensusStore {
  /** Blocks stored so far (the next block's number). */
  size(): number;
  idOf(block: number): BlockId;
  /** The block's number, or undefined when it is not stored. */
  numberOf(id: BlockId): number | undefined;
  /** Stores the next block (number `size()`) with its GHOSTDAG record; returns its number. */
  push(id: BlockId, record: GhostdagRecord): number;
  ghostdag(block: number): GhostdagRecord;
  node(block: number): ReachabilityNode;
  /** Records a new or changed reachability node. */
  touchNode(block: number, node: ReachabilityNode): void;
  /** The block with the highest (blue work, hash); -1 before genesis. */
  tip: number;
  /** The reachability reindex root; -1 before genesis. */
  reindexRoot: number;
  /** Row writes staged since the last call, for the caller's next atomic batch (none for the memory backend). */
  drainWrites(): KvOp[];
  /** Drops a block whose rows a pruner deleted from the read caches: `numberOf` no longer finds it. */
  forget(block: number, id: BlockId): void;
  /** Each cache's size and hit counts (none for the memory backend). */
  cacheStats(): ReadCacheStats[];
}

export function createMemoryConsensusStore(): ConsensusStore {
  const ids: BlockId[] = [];
  const numbers = new Map<BlockId, number>();
  const records: GhostdagRecord[] = [];
  const nodes: ReachabilityNode[] = [];
  return {
    size: () => ids.length,
    idOf(block) {
      const id = ids[block];
      if (id === undefined) throw new UnknownBlockError(String(block), 'block number');
      return id;
    },
    numberOf: (id) => numbers.get(id),
    push(id, record) {
      const block = ids.length;
      ids.push(id);
      numbers.set(id, block);
      records.push(record);
      return block;
    },
    ghostdag: (block) => records[block]!,
    node: (block) => nodes[block]!,
    touchNode(block, node) {
      nodes[block] = node;
    },
    tip: -1,
    reindexRoot: -1,
    drainWrites: () => [],
    forget(_block, id) {
      numbers.delete(id);
    },
    cacheStats: () => [],
  };
}
