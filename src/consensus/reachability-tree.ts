/**
 * The reachability store: the selected-parent tree with an interval per block, and each block's future covering
 * set (rusty-kaspa `model/stores/reachability.rs`, `processes/reachability/{extensions,inquirer}.rs`).
 *
 * Blocks are dense integers 0, 1, 2, … in insertion order (the GHOSTDAG engine interns its string ids). Each block's
 * node lives in a ConsensusStore (plain arrays, or store rows behind a bounded cache); every change goes back through
 * `touchNode`, so the full node writes the changed nodes in the block's batch.
 *
 * Invariants: a block's interval contains the intervals of its tree children, which are disjoint and ordered by
 * start in `children` order; a block's own `end` is never given to a child (it is the block's unique point); every
 * future covering set is ordered by interval start and holds no two blocks where one is a chain ancestor of the other.
 */
import { assert } from '../errors.ts';
import type { ConsensusStore, ReachabilityNode } from './consensus-store.ts';

/** The part of the consensus store the tree uses. */
export type ReachabilityStore = Pick<ConsensusStore, 'node' | 'touchNode' | 'reindexRoot'>;

export class ReachabilityTree {
  /** Operation counters, for the scaling checks (they never affect results). */
  readonly counters = { intervalWrites: 0, subtreeVisits: 0, reindexes: 0, reindexesBeforeRoot: 0, concentrations: 0 };

  constructor(private readonly store: ReachabilityStore) {}

  get reindexRoot(): number {
    return this.store.reindexRoot;
  }

  set reindexRoot(block: number) {
    this.store.reindexRoot = block;
  }

  start(block: number): number {
    return this.store.node(block).start;
  }

  end(block: number): number {
    return this.store.node(block).end;
  }

  /** Tree parent = selected parent; -1 for the root (genesis). */
  parent(block: number): number {
    return this.store.node(block).parent;
  }

  /** Depth in the selected-parent tree (genesis 0). */
  height(block: number): number {
    return this.store.node(block).height;
  }

  children(block: number): readonly number[] {
    return this.store.node(block).children;
  }

  /** Future covering set: blocks that merged this one (outside their selected parent), ordered by interval start. */
  fcs(block: number): readonly number[] {
    return this.store.node(block).fcs;
  }

  /** `height` defaults to the parent's + 1; a joined chain's trusted blocks carry their real height (their chain below is not stored). */
  insert(block: number, parent: number, start: number, end: number, height = parent < 0 ? 0 : this.height(parent) + 1): void {
    const node: ReachabilityNode = { start, end, parent, height, children: [], fcs: [] };
    this.store.touchNode(block, node);
    if (parent >= 0) {
      const up = this.store.node(parent);
      up.children.push(block);
      this.store.touchNode(parent, up);
    }
  }

  setInterval(block: number, start: number, end: number): void {
    assert(start >= 1 && end >= start - 1, `bad interval [${start}, ${end}] for block ${block}`);
    const node = this.store.node(block);
    node.start = start;
    node.end = end;
    this.store.touchNode(block, node);
    this.counters.intervalWrites++;
  }

  /** `a ∈ chain(b) ∪ {b}` (reflexive): interval containment. */
  isChainAncestor(a: number, b: number): boolean {
    const na = this.store.node(a);
    const nb = this.store.node(b);
    return na.start <= nb.start && nb.end <= na.end;
  }

  /** `a ∈ chain(b)`, `a ≠ b`. */
  isStrictChainAncestor(a: number, b: number): boolean {
    const na = this.store.node(a);
    const nb = this.store.node(b);
    return na.start <= nb.start && nb.end < na.end;
  }

  /**
   * `a ∈ past(b) ∪ {b}` (reflexive). Either `a` is a chain ancestor of `b`, or some block that merged `a` is: the
   * future covering set of `a` covers all of future(a) that is not below `a` in the tree.
   */
  isDagAncestor(a: number, b: number): boolean {
    if (this.isChainAncestor(a, b)) return true;
    const set = this.fcs(a);
    return set.length > 0 && this.searchDescendant(set, b) >= 0;
  }

  /**
   * In a list ordered by interval start whose members are pairwise not chain-related, finds the one that is a chain
   * ancestor of `descendant` (reflexive): its index, or `-(insertion index) - 1` when none is.
   */
  searchDescendant(ordered: readonly number[], descendant: number): number {
    // A block's end point is its own: the only candidate is the last member starting at or before it.
    const point = this.end(descendant);
    let lo = 0;
    let hi = ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.start(ordered[mid]!) <= point) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && this.isChainAncestor(ordered[lo - 1]!, descendant)) return lo - 1;
    return -lo - 1;
  }

  /** The tree child of `ancestor` on the way to `descendant`; the caller guarantees one exists. */
  nextChainAncestor(descendant: number, ancestor: number): number {
    const kids = this.children(ancestor);
    const i = this.searchDescendant(kids, descendant);
    assert(i >= 0, `block ${ancestor} has no tree child above block ${descendant}`);
    return kids[i]!;
  }

  insertFutureCovering(merged: number, block: number): void {
    const node = this.store.node(merged);
    const i = this.searchDescendant(node.fcs, block);
    // A member that is a chain ancestor of `block` would put `merged` in past(selected parent of block): a bug.
    assert(i < 0, `block ${merged} merged by ${block} is already in the past of a chain ancestor`);
    node.fcs.splice(-i - 1, 0, block);
    this.store.touchNode(merged, node);
  }

  // Interval views of a block's space for its children (Kaspa `extensions.rs`). The block's own end is excluded.

  childrenCapacityEnd(block: number): number {
    return this.end(block) - 1;
  }

  /** Free points before the first child: `[start, firstChild.start − 1]`. */
  remainingBeforeSize(block: number): number {
    const kids = this.children(block);
    const last = kids.length === 0 ? this.childrenCapacityEnd(block) : this.start(kids[0]!) - 1;
    return last + 1 - this.start(block);
  }

  /** Start of the free points after the last child: `[lastChild.end + 1, end − 1]`. */
  remainingAfterStart(block: number): number {
    const kids = this.children(block);
    return kids.length === 0 ? this.start(block) : this.end(kids[kids.length - 1]!) + 1;
  }

  remainingAfterSize(block: number): number {
    return this.childrenCapacityEnd(block) + 1 - this.remainingAfterStart(block);
  }
}
