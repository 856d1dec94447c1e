/**
 * DAG reachability ("is A in the past of B?") in O(log) per query, as rusty-kaspa implements it
 * (`consensus/src/processes/reachability/{inquirer,tree,reindex}.rs`):
 *
 * - The selected-parent tree is labelled with nested intervals. `A ∈ chain(B) ∪ {B}` ⇔ interval(A) ⊇ interval(B): O(1).
 * - Each block A keeps a future covering set FCS(A): the blocks that have A in their mergeset (other than as the
 *   selected parent). `A ∈ past(B)` ⇔ A is a chain ancestor of B, or some F ∈ FCS(A) is: one binary search.
 * - A new block takes half of its selected parent's free interval. When none is left, the tree is reindexed near
 *   the selected tip (see `reachability-reindex.ts`); a reindex root trailing the selected tip by `reindexDepth`
 *   concentrates the interval space on the selected chain, so that work stays bounded per block.
 *
 * Blocks are dense integers in insertion order; the caller gives each block its selected parent and its mergeset
 * without the selected parent (GHOSTDAG output), and hints the new selected tip.
 */
import { assert } from '../errors.ts';
import { halfSize, intervalEndMax, intervalStartMin } from './reachability-interval.ts';
import { concentrateInterval, createReindexOp, reindexIntervals } from './reachability-reindex.ts';
import { ReachabilityTree, type ReachabilityStore } from './reachability-tree.ts';
import { createMemoryConsensusStore } from './consensus-store.ts';

/** How far (tree height) the reindex root trails the selected tip (Kaspa `DEFAULT_REINDEX_DEPTH`). */
const reindexDepthDefault = 100;
/** Free points kept beside each chain block below the reindex root, and the height lead a competing chain needs before the root follows it (Kaspa `DEFAULT_REINDEX_SLACK`). */
const reindexSlackDefault = 2 ** 14;

export interface ReachabilityOptions {
  /** Default `reindexDepthDefault`. */
  reindexDepth?: number;
  /** Default `reindexSlackDefault`. */
  reindexSlack?: number;
  /** Points in the root interval; default 2^53 − 2 (tests use small ones to force reindexing). */
  capacity?: number;
  /** Where the nodes live; default plain arrays (the GHOSTDAG engine passes its consensus store). */
  store?: ReachabilityStore;
}

export interface ReachabilityCounters {
  readonly intervalWrites: number;
  readonly subtreeVisits: number;
  readonly reindexes: number;
  readonly reindexesBeforeRoot: number;
  readonly concentrations: number;
}

export interface ReachabilityIndex {
  /** The first block (number 0): the root of the tree. */
  addRoot(block: number): void;
  /**
   * Adds `block` (the next dense number) under `selectedParent`; `mergeset` excludes the selected parent. `height`
   * defaults to the selected parent's + 1 (a trusted block hanging from a joined chain's origin gives its own).
   */
  addBlock(block: number, selectedParent: number, mergeset: Iterable<number>, height?: number): void;
  /** `block` is the new selected tip: the reindex root may move forward along its chain. */
  hintSelectedTip(block: number): void;
  /** `a ∈ chain(b) ∪ {b}` (reflexive, as Kaspa). */
  isChainAncestor(a: number, b: number): boolean;
  /** `a ∈ past(b) ∪ {b}` (reflexive, as Kaspa). */
  isDagAncestor(a: number, b: number): boolean;
  /** Tree height (selected-chain length from the root). */
  height(block: number): number;
  counters(): ReachabilityCounters;
  /** Checks every tree and covering-set invariant of blocks 0 … blocks − 1; O(n). For tests. */
  validate(blocks: number): void;
}

export function createReachabilityIndex(options: ReachabilityOptions = {}): ReachabilityIndex {
  const depth = options.reindexDepth ?? reindexDepthDefault;
  const slack = options.reindexSlack ?? reindexSlackDefault;
  const capacity = options.capacity ?? intervalEndMax;
  assert(Number.isSafeInteger(depth) && depth >= 1, `reindexDepth must be a positive integer, got ${depth}`);
  assert(Number.isSafeInteger(slack) && slack >= 1, `reindexSlack must be a positive integer, got ${slack}`);
  assert(Number.isSafeInteger(capacity) && capacity >= 2 && capacity <= intervalEndMax, `bad capacity ${capacity}`);
  const tree = new ReachabilityTree(options.store ?? createMemoryConsensusStore());

  function addTreeBlock(block: number, parent: number, height: number | undefined): void {
    const start = tree.remainingAfterStart(parent);
    const size = tree.childrenCapacityEnd(parent) + 1 - start;
    if (size > 0) {
      tree.insert(block, parent, start, start + halfSize(size) - 1, height);
      return;
    }
    // The empty interval right at the end of the parent's capacity: the reindex relies on that position.
    tree.insert(block, parent, start, start - 1, height);
    reindexIntervals(createReindexOp(tree, slack), block, tree.reindexRoot);
  }

  return {
    addRoot(block) {
      assert(tree.reindexRoot === -1, 'the reachability root is added once, first');
      tree.insert(block, -1, intervalStartMin, intervalStartMin + capacity - 1);
      tree.reindexRoot = block;
    },
    addBlock(block, selectedParent, mergeset, height) {
      assert(selectedParent >= 0 && selectedParent < block, `unknown selected parent ${selectedParent}`);
      addTreeBlock(block, selectedParent, height);
      for (const merged of mergeset) tree.insertFutureCovering(merged, block);
    },
    hintSelectedTip(block) {
      advanceReindexRoot(tree, block, depth, slack);
    },
    isChainAncestor: (a, b) => tree.isChainAncestor(a, b),
    isDagAncestor: (a, b) => tree.isDagAncestor(a, b),
    height: (block) => tree.height(block),
    counters: () => ({ ...tree.counters }),
    validate: (blocks) => validateTree(tree, blocks),
  };
}

/** Moves the reindex root towards `hint` until it trails it by less than `depth` (Kaspa `try_advancing_reindex_root`). */
function advanceReindexRoot(tree: ReachabilityTree, hint: number, depth: number, slack: number): void {
  const current = tree.reindexRoot;
  let ancestor = current;
  let next = current;
  const hintHeight = tree.height(hint);
  if (!tree.isChainAncestor(current, hint)) {
    // A reorg: follow the other chain only once it leads by `slack` heights, so alternating reorgs cannot force
    // a reindex each time.
    const currentHeight = tree.height(current);
    if (hintHeight < currentHeight || hintHeight - currentHeight < slack) return;
    let common = hint;
    while (!tree.isChainAncestor(common, current)) common = tree.parent(common);
    ancestor = common;
    next = common;
  }
  for (;;) {
    if (next === hint) break;
    const child = tree.nextChainAncestor(hint, next);
    if (hintHeight - tree.height(child) < depth) break;
    next = child;
  }
  if (next === current) return;
  while (ancestor !== next) {
    const child = tree.nextChainAncestor(next, ancestor);
    concentrateInterval(createReindexOp(tree, slack), ancestor, child, child === next);
    ancestor = child;
  }
  tree.reindexRoot = next;
}

function validateTree(tree: ReachabilityTree, blocks: number): void {
  for (let b = 0; b < blocks; b++) {
    const kids = tree.children(b);
    assert(tree.end(b) >= tree.start(b), `block ${b} has an empty interval`);
    let prevEnd = tree.start(b) - 1;
    for (const c of kids) {
      assert(tree.parent(c) === b, `block ${c} lists the wrong tree parent`);
      assert(tree.start(c) > prevEnd && tree.end(c) >= tree.start(c), `children of ${b} overlap or are empty`);
      prevEnd = tree.end(c);
    }
    assert(prevEnd < tree.end(b), `children of ${b} reach its own end point`);
    const set = tree.fcs(b);
    for (let i = 1; i < set.length; i++) {
      assert(tree.end(set[i - 1]!) < tree.start(set[i]!), `future covering set of ${b} is out of order`);
    }
  }
}
