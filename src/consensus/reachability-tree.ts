/**
 * The reachability store: the selected-parent tree with an interval per block, and each block's future covering
 * set (rusty-kaspa `model/stores/reachability.rs`, `processes/reachability/{extensions,inquirer}.rs`).
 *
 * Blocks are dense integers 0, 1, 2, … in insertion order (the GHOSTDAG engine interns its string ids), so every
 * field is a plain array indexed by block number: no hashing on the hot path.
 *
 * Invariants: a block's interval contains the intervals of its tree children, which are disjoint and ordered by
 * start in `children` order; a block's own `end` is never given to a child (it is the block's unique point); every
 * future covering set is ordered by interval start and holds no two blocks where one is a chain ancestor of the other.
 */
import { assert } from '../errors.ts';

export class ReachabilityTree {
  readonly start: number[] = [];
  readonly end: number[] = [];
  /** Tree parent = selected parent; -1 for the root (genesis). */
  readonly parent: number[] = [];
  /** Depth in the selected-parent tree (genesis 0). */
  readonly height: number[] = [];
  readonly children: number[][] = [];
  /** Future covering set: blocks that merged this one (outside their selected parent), ordered by interval start. */
  readonly fcs: (number[] | undefined)[] = [];
  reindexRoot = -1;
  /** Operation counters, for the scaling checks (they never affect results). */
  readonly counters = { intervalWrites: 0, subtreeVisits: 0, reindexes: 0, reindexesBeforeRoot: 0, concentrations: 0 };

  size(): number {
    return this.start.length;
  }

  insert(block: number, parent: number, start: number, end: number): void {
    assert(block === this.start.length, `reachability blocks are dense: got ${block}, expected ${this.start.length}`);
    this.start.push(start);
    this.end.push(end);
    this.parent.push(parent);
    this.height.push(parent < 0 ? 0 : this.height[parent]! + 1);
    this.children.push([]);
    this.fcs.push(undefined);
    if (parent >= 0) this.children[parent]!.push(block);
  }

  setInterval(block: number, start: number, end: number): void {
    assert(start >= 1 && end >= start - 1, `bad interval [${start}, ${end}] for block ${block}`);
    this.start[block] = start;
    this.end[block] = end;
    this.counters.intervalWrites++;
  }

  /** `a ∈ chain(b) ∪ {b}` (reflexive): interval containment. */
  isChainAncestor(a: number, b: number): boolean {
    return this.start[a]! <= this.start[b]! && this.end[b]! <= this.end[a]!;
  }

  /** `a ∈ chain(b)`, `a ≠ b`. */
  isStrictChainAncestor(a: number, b: number): boolean {
    return this.start[a]! <= this.start[b]! && this.end[b]! < this.end[a]!;
  }

  /**
   * `a ∈ past(b) ∪ {b}` (reflexive). Either `a` is a chain ancestor of `b`, or some block that merged `a` is: the
   * future covering set of `a` covers all of future(a) that is not below `a` in the tree.
   */
  isDagAncestor(a: number, b: number): boolean {
    if (this.isChainAncestor(a, b)) return true;
    const set = this.fcs[a];
    return set !== undefined && this.searchDescendant(set, b) >= 0;
  }

  /**
   * In a list ordered by interval start whose members are pairwise not chain-related, finds the one that is a chain
   * ancestor of `descendant` (reflexive): its index, or `-(insertion index) - 1` when none is.
   */
  searchDescendant(ordered: readonly number[], descendant: number): number {
    // A block's end point is its own: the only candidate is the last member starting at or before it.
    const point = this.end[descendant]!;
    let lo = 0;
    let hi = ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.start[ordered[mid]!]! <= point) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && this.isChainAncestor(ordered[lo - 1]!, descendant)) return lo - 1;
    return -lo - 1;
  }

  /** The tree child of `ancestor` on the way to `descendant`; the caller guarantees one exists. */
  nextChainAncestor(descendant: number, ancestor: number): number {
    const kids = this.children[ancestor]!;
    const i = this.searchDescendant(kids, descendant);
    assert(i >= 0, `block ${ancestor} has no tree child above block ${descendant}`);
    return kids[i]!;
  }

  insertFutureCovering(merged: number, block: number): void {
    let set = this.fcs[merged];
    if (set === undefined) {
      set = [];
      this.fcs[merged] = set;
    }
    const i = this.searchDescendant(set, block);
    // A member that is a chain ancestor of `block` would put `merged` in past(selected parent of block): a bug.
    assert(i < 0, `block ${merged} merged by ${block} is already in the past of a chain ancestor`);
    set.splice(-i - 1, 0, block);
  }

  // Interval views of a block's space for its children (Kaspa `extensions.rs`). The block's own end is excluded.

  childrenCapacityEnd(block: number): number {
    return this.end[block]! - 1;
  }

  /** Free points before the first child: `[start, firstChild.start − 1]`. */
  remainingBeforeSize(block: number): number {
    const kids = this.children[block]!;
    const last = kids.length === 0 ? this.childrenCapacityEnd(block) : this.start[kids[0]!]! - 1;
    return last + 1 - this.start[block]!;
  }

  /** Start of the free points after the last child: `[lastChild.end + 1, end − 1]`. */
  remainingAfterStart(block: number): number {
    const kids = this.children[block]!;
    return kids.length === 0 ? this.start[block]! : this.end[kids[kids.length - 1]!]! + 1;
  }

  remainingAfterSize(block: number): number {
    return this.childrenCapacityEnd(block) + 1 - this.remainingAfterStart(block);
  }
}
