/**
 * The GHOSTDAG engine over a block DAG: colouring, blue score, blue work, mergeset order and DAG reachability,
 * bit-exact with rusty-kaspa (Kaspa's `dags/dag0..5.json` vectors). The algorithm is in `ghostdag-core.ts`,
 * reachability in `reachability.ts`; this file interns ids, checks input and stores results in a ConsensusStore
 * (consensus-store.ts: arrays by default, store rows behind bounded caches in the full node).
 * See docs/ghostdag.md.
 *
 * Conventions: genesis has blue score 0 and blue work 0, and its own work is counted in its children (as Kaspa).
 * `isDagAncestorOf` and `isChainAncestorOf` are strict (a block is not its own ancestor).
 */
import { type ConsensusStore, createMemoryConsensusStore } from './consensus-store.ts';
import { type CoreContext, type CoreData, computeGhostdag } from './ghostdag-core.ts';
import {
  DuplicateBlockError,
  GhostdagUsageError,
  InvalidParentsError,
  UnknownBlockError,
} from './ghostdag-errors.ts';
import { compareHashesDefault, selectVirtualParents } from './ghostdag-order.ts';
import type { KvOp } from '../storage/kv.ts';
import type { ReadCacheStats } from '../storage/read-cache.ts';
import {
  type ReachabilityIndex,
  type ReachabilityOptions,
  createReachabilityIndex,
} from './reachability.ts';
import { trustedOriginId, type BlockId, type GhostdagData, type GhostdagEngine, type GhostdagStats, type TrustedGhostdagData } from './ghostdag-types.ts';

export { trustedOriginId, type BlockId, type GhostdagData, type GhostdagEngine,  type TrustedGhostdagData } from './ghostdag-types.ts';

export interface GhostdagEngineOptions {
  k: number;
  /** Most blocks a mergeset may hold, the selected parent included (Weft: 180). Default 180. */
  mergesetSizeLimit?: number;
  compareHashes?: (a: BlockId, b: BlockId) => number;
  /** Reachability index tuning (tests use a small capacity to force reindexing). */
  reachability?: Omit<ReachabilityOptions, 'store'>;
  /** Where blocks are kept; default plain arrays. A store that already holds blocks resumes from them. */
  store?: ConsensusStore;
}

/** Kaspa's mergeset size limit at 1 block/s (clamp(2k, 180, 512) with k = 18). */
const mergesetSizeLimitDefault = 180;

export function createGhostdagEngine(options: GhostdagEngineOptions): GhostdagEngine {
  return new Engine(options);
}

/** The engine: interned blocks (dense numbers in insertion order) in per-field arrays, plus the reachability index. */
class Engine implements GhostdagEngine {
  private readonly store: ConsensusStore;
  private readonly reach: ReachabilityIndex;
  private readonly ctx: CoreContext;
  private readonly compareHashes: (a: BlockId, b: BlockId) => number;
  private reachabilityQueries = 0;

  constructor(options: GhostdagEngineOptions) {
    const { k } = options;
    const limit = options.mergesetSizeLimit ?? mergesetSizeLimitDefault;
    if (!Number.isSafeInteger(k) || k < 0) throw new GhostdagUsageError(`k must be a non-negative integer, got ${k}`);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new GhostdagUsageError(`mergesetSizeLimit must be ≥ 1, got ${limit}`);
    this.compareHashes = options.compareHashes ?? compareHashesDefault;
    this.store = options.store ?? createMemoryConsensusStore();
    const reach = createReachabilityIndex({ ...options.reachability, store: this.store });
    this.reach = reach;
    this.ctx = {
      store: this.store,
      k,
      mergesetSizeLimit: limit,
      compare: this.compare,
      counters: { storeReads: 0 },
      isDagAncestor: (a, b) => {
        this.reachabilityQueries++;
        return reach.isDagAncestor(a, b);
      },
    };
  }

  /** Kaspa's SortableBlock order over interned blocks. */
  private readonly compare = (a: number, b: number): number => {
    const wa = this.store.ghostdag(a).blueWork;
    const wb = this.store.ghostdag(b).blueWork;
    if (wa !== wb) return wa < wb ? -1 : 1;
    return this.compareHashes(this.store.idOf(a), this.store.idOf(b));
  };

  addGenesis(id: BlockId, work: bigint): GhostdagData {
    if (this.store.size() > 0) throw new GhostdagUsageError(`genesis is added once, first; the DAG already holds ${this.store.size()} blocks`);
    checkWork(work);
    const data: CoreData = { selectedParent: -1, blueScore: 0, blueWork: 0n, blues: [], reds: [], anticoneSizes: new Map() };
    const i = this.push(id, [], work, data);
    this.reach.addRoot(i);
    this.store.tip = i;
    return this.publicData(data);
  }

  addTrustedOrigin(): void {
    if (this.store.size() > 0) throw new GhostdagUsageError(`the origin is added once, first; the DAG already holds ${this.store.size()} blocks`);
    const data: CoreData = { selectedParent: -1, blueScore: 0, blueWork: 0n, blues: [], reds: [], anticoneSizes: new Map() };
    const i = this.push(trustedOriginId, [], 1n, data);
    this.reach.addRoot(i);
    this.store.tip = i;
  }

  addTrustedBlock(id: BlockId, parents: readonly BlockId[], work: bigint, data: TrustedGhostdagData, height: number): void {
    if (this.store.numberOf(id) !== undefined) throw new DuplicateBlockError(id);
    checkWork(work);
    const origin = this.lookup(trustedOriginId, 'origin');
    const known = (ids: readonly BlockId[]): number[] => ids.map((b) => this.store.numberOf(b)).filter((b): b is number => b !== undefined);
    const sp = (data.selectedParent === null ? undefined : this.store.numberOf(data.selectedParent)) ?? origin;
    const sizes = new Map<number, number>();
    for (const [b, size] of data.bluesAnticoneSizes) {
      const n = this.store.numberOf(b);
      if (n !== undefined) sizes.set(n, size);
    }
    const interned = known(parents);
    if (interned.length < parents.length) interned.push(origin);
    const core: CoreData = {
      selectedParent: sp,
      blueScore: data.blueScore,
      blueWork: data.blueWork,
      blues: [sp, ...known(data.mergesetBlues.slice(1))],
      reds: known(data.mergesetReds),
      anticoneSizes: sizes,
    };
    const i = this.push(id, interned, work, core);
    this.reach.addBlock(i, sp, core.blues.slice(1).concat(core.reds), height);
    // As addBlock: the reindex root follows the heaviest chain, so reindexing stays near the newest blocks.
    if (this.compare(i, this.store.tip) > 0) {
      this.store.tip = i;
      this.reach.hintSelectedTip(i);
    }
  }

  setSelectedTip(id: BlockId): void {
    const i = this.lookup(id, 'block');
    this.store.tip = i;
    this.reach.hintSelectedTip(i);
  }

  addBlock(id: BlockId, parents: readonly BlockId[], work: bigint): GhostdagData {
    if (this.store.numberOf(id) !== undefined) throw new DuplicateBlockError(id);
    checkWork(work);
    const interned = this.checkParents(parents);
    const data = computeGhostdag(this.ctx, interned);
    const i = this.push(id, interned, work, data);
    this.reach.addBlock(i, data.selectedParent, data.blues.slice(1).concat(data.reds));
    if (this.compare(i, this.store.tip) > 0) {
      this.store.tip = i;
      this.reach.hintSelectedTip(i);
    }
    return this.publicData(data);
  }

  computeBlock(parents: readonly BlockId[], work: bigint): GhostdagData {
    checkWork(work);
    return this.publicData(computeGhostdag(this.ctx, this.checkParents(parents)));
  }

  get(id: BlockId): GhostdagData | undefined {
    const i = id === trustedOriginId ? undefined : this.store.numberOf(id);
    return i === undefined ? undefined : this.publicData(this.storedData(i));
  }

  has(id: BlockId): boolean {
    return id !== trustedOriginId && this.store.numberOf(id) !== undefined;
  }

  parents(id: BlockId): readonly BlockId[] {
    return this.store.ghostdag(this.lookup(id, 'block')).parents.map((p) => this.store.idOf(p));
  }

  isDagAncestorOf(a: BlockId, b: BlockId): boolean {
    const ia = this.lookup(a, 'block');
    const ib = this.lookup(b, 'block');
    return ia !== ib && this.reach.isDagAncestor(ia, ib);
  }

  isChainAncestorOf(a: BlockId, b: BlockId): boolean {
    const ia = this.lookup(a, 'block');
    const ib = this.lookup(b, 'block');
    return ia !== ib && this.reach.isChainAncestor(ia, ib);
  }

  orderedMergeset(id: BlockId): BlockId[] {
    const i = this.lookup(id, 'block');
    const record = this.store.ghostdag(i);
    if (record.selectedParent < 0) return [];
    const rest = record.blues.slice(1).concat(record.reds).sort(this.compare);
    return [this.store.idOf(record.selectedParent), ...rest.map((b) => this.store.idOf(b))];
  }

  size(): number {
    return this.store.size();
  }

  virtualParents(tips: readonly BlockId[], maxParents: number): BlockId[] {
    return selectVirtualParents(this, tips, maxParents);
  }

  compareBlocks(a: BlockId, b: BlockId): number {
    return this.compare(this.lookup(a, 'block'), this.lookup(b, 'block'));
  }

  selectedTip(): BlockId | undefined {
    return this.store.tip < 0 ? undefined : this.store.idOf(this.store.tip);
  }

  height(id: BlockId): number {
    return this.reach.height(this.lookup(id, 'block'));
  }

  stats(): GhostdagStats {
    return {
      blocks: this.store.size(),
      reachabilityQueries: this.reachabilityQueries,
      storeReads: this.ctx.counters.storeReads,
      reachability: this.reach.counters(),
    };
  }

  drainWrites(): KvOp[] {
    return this.store.drainWrites();
  }

  cacheStats(): ReadCacheStats[] {
    return this.store.cacheStats();
  }

  private lookup(id: BlockId, role: string): number {
    const i = this.store.numberOf(id);
    if (i === undefined) throw new UnknownBlockError(id, role);
    return i;
  }

  /** Interns and checks a parent list: non-empty, known, distinct, an antichain (Kaspa's "parents incest" rule). */
  private checkParents(parents: readonly BlockId[]): number[] {
    if (parents.length === 0) throw new InvalidParentsError('block has no parents; expected at least one');
    const out = parents.map((p) => this.lookup(p, 'parent'));
    if (new Set(out).size !== out.length) throw new InvalidParentsError('block lists a parent twice', { parents });
    for (const a of out) {
      for (const b of out) {
        if (a !== b && this.reach.isDagAncestor(a, b)) {
          throw new InvalidParentsError(`parent ${this.store.idOf(a)} is in the past of parent ${this.store.idOf(b)}; expected an antichain`, {
            parents,
          });
        }
      }
    }
    return out;
  }

  /** The data callers see: a joined chain's origin never appears in it (a trusted block on it has no selected parent). */
  private publicData(data: CoreData): GhostdagData {
    const idOf = (b: number): BlockId => this.store.idOf(b);
    const sizes = new Map<BlockId, number>();
    for (const [b, s] of data.anticoneSizes) if (idOf(b) !== trustedOriginId) sizes.set(idOf(b), s);
    const sp = data.selectedParent < 0 ? null : idOf(data.selectedParent);
    return {
      selectedParent: sp === trustedOriginId ? null : sp,
      blueScore: data.blueScore,
      blueWork: data.blueWork,
      mergesetBlues: data.blues.map(idOf).filter((b) => b !== trustedOriginId),
      mergesetReds: data.reds.map(idOf),
      bluesAnticoneSizes: sizes,
      mergesetSize: data.blues.length + data.reds.length,
    };
  }

  private storedData(i: number): CoreData {
    const record = this.store.ghostdag(i);
    const pairs = record.anticoneSizes;
    const sizes = new Map<number, number>();
    for (let j = 0; j < pairs.length; j += 2) sizes.set(pairs[j]!, pairs[j + 1]!);
    return {
      selectedParent: record.selectedParent,
      blueScore: record.blueScore,
      blueWork: record.blueWork,
      blues: record.blues.slice(),
      reds: record.reds.slice(),
      anticoneSizes: sizes,
    };
  }

  private push(id: BlockId, parents: number[], work: bigint, data: CoreData): number {
    const pairs: number[] = [];
    for (const [b, s] of data.anticoneSizes) pairs.push(b, s);
    return this.store.push(id, {
      parents,
      work,
      selectedParent: data.selectedParent,
      blueScore: data.blueScore,
      blueWork: data.blueWork,
      blues: data.blues,
      reds: data.reds,
      anticoneSizes: pairs,
    });
  }
}

function checkWork(work: bigint): void {
  // Blue work must grow on every edge: mergeset sorting relies on it being a topological order.
  if (typeof work !== 'bigint' || work <= 0n) throw new GhostdagUsageError(`block work must be a positive bigint, got ${String(work)}`);
}
