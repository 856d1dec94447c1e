/**
 * GHOSTDAG's shared types: block ids, the per-block data, the engine's interface. They live apart from the engine
 * so the ordering helpers (ghostdag-order.ts) can name them without importing ghostdag.ts, which imports those
 * helpers: no import cycle, type-only ones included.
 */
import type { KvOp } from '../storage/kv.ts';
import type { ReadCacheStats } from '../storage/read-cache.ts';
import type { ReachabilityCounters } from './reachability.ts';

/** Lowercase hex of the 32-byte block hash. */
export type BlockId = string;

export interface GhostdagData {
  /** null for genesis. */
  readonly selectedParent: BlockId | null;
  readonly blueScore: number;
  readonly blueWork: bigint;
  /** Selected parent first, then the other blues in processing (ascending blue work, hash) order. */
  readonly mergesetBlues: readonly BlockId[];
  /** In processing order. */
  readonly mergesetReds: readonly BlockId[];
  /** Blue anticone sizes from this block's view: its mergeset blues, and older blues whose size it changed. */
  readonly bluesAnticoneSizes: ReadonlyMap<BlockId, number>;
  /** |mergesetBlues| + |mergesetReds| (the selected parent included): what the mergeset size limit bounds. */
  readonly mergesetSize: number;
}

/**
 * The virtual origin of a joined chain (docs/pruning-proof.md "Trusted data"): block 0 of its engine and the root of
 * its reachability tree, standing for everything below the trusted blocks. Every trusted block whose selected parent
 * (or any parent) is not stored hangs from it, so "is X in the past of Y" stays answerable. Never a real hash (an
 * all-zero hash would need an impossible PoW); the engine reports it as unknown.
 */
export const trustedOriginId: BlockId = '0'.repeat(64);

/** A trusted block's GHOSTDAG data as its sender computed it (ids may name blocks below the trusted set). */
export type TrustedGhostdagData = Omit<GhostdagData, 'mergesetSize'>;

export interface GhostdagStats {
  readonly blocks: number;
  /** Reachability queries made by GHOSTDAG (mergeset search and colouring). */
  readonly reachabilityQueries: number;
  /** Per-block GHOSTDAG data records read while colouring (chain walks). */
  readonly storeReads: number;
  readonly reachability: ReachabilityCounters;
}

export interface GhostdagEngine {
  addGenesis(id: BlockId, work: bigint): GhostdagData;
  /** A joined chain's first block: the virtual origin its trusted blocks hang from (instead of genesis). */
  addTrustedOrigin(): void;
  /**
   * Stores a trusted block with the GHOSTDAG data it came with (not recomputed: its past is not stored) and its real
   * selected-chain height. Parents and mergeset members that are not stored stand for the origin or are left out.
   * Blocks come in ascending (blue work, hash), after addTrustedOrigin.
   */
  addTrustedBlock(id: BlockId, parents: readonly BlockId[], work: bigint, data: TrustedGhostdagData, height: number): void;
  /** Makes a stored block the selected tip (a joined chain starts at its pruning point, whatever its anticone weighs). */
  setSelectedTip(id: BlockId): void;
  /** Computes, stores and indexes a block; throws MergesetTooLargeError, InvalidParentsError, UnknownBlockError, DuplicateBlockError. */
  addBlock(id: BlockId, parents: readonly BlockId[], work: bigint): GhostdagData;
  /** What addBlock would give for these parents, storing nothing (block templates, validation before commit). */
  computeBlock(parents: readonly BlockId[], work: bigint): GhostdagData;
  get(id: BlockId): GhostdagData | undefined;
  has(id: BlockId): boolean;
  parents(id: BlockId): readonly BlockId[];
  /** a ∈ past(b), a ≠ b. */
  isDagAncestorOf(a: BlockId, b: BlockId): boolean;
  /** a is on b's selected-parent chain, a ≠ b. */
  isChainAncestorOf(a: BlockId, b: BlockId): boolean;
  /** Consensus order for acceptance: selected parent, then the rest of the mergeset ascending by (blue work, hash). */
  orderedMergeset(id: BlockId): BlockId[];
  size(): number;
  /** Best tips for a template, selected tip first (see `selectVirtualParents`). */
  virtualParents(tips: readonly BlockId[], maxParents: number): BlockId[];
  /** Kaspa's SortableBlock order over known blocks: blue work, then hash. */
  compareBlocks(a: BlockId, b: BlockId): number;
  /** The block with the highest (blue work, hash) so far; undefined before genesis. */
  selectedTip(): BlockId | undefined;
  /** Length of the selected-parent chain from genesis (genesis 0). */
  height(id: BlockId): number;
  /** Operation counters, for scaling checks. */
  stats(): GhostdagStats;
  /** The store's row writes since the last call (addGenesis/addBlock), for the caller's atomic batch. */
  drainWrites(): KvOp[];
  /** The store's caches: size and hit counts. */
  cacheStats(): ReadCacheStats[];
}
