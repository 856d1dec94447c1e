/**
 * Reindexing of the reachability tree intervals, after rusty-kaspa `processes/reachability/reindex.rs`.
 *
 * Two triggers:
 * - a block whose tree parent has no free interval left (`reindexIntervals`): climb to the nearest ancestor whose
 *   interval is at least its subtree size and re-split that subtree's intervals by subtree size; or, when the climb
 *   would leave the reindex root's subtree, borrow the slack kept beside the chain (`reclaimBefore/After`);
 * - the reindex root moving forward along the selected chain (`concentrateInterval`): the chain child keeps almost
 *   all of the parent's interval; its siblings are packed tight, with `slack` points kept free on each side.
 * Both touch only subtrees near the selected tip (the reindex root trails the tip by `reindexDepth`), so the
 * amortised cost per block does not grow with the DAG.
 */
import { assert } from '../errors.ts';
import { splitExponentialSizes } from './reachability-interval.ts';
import type { ReachabilityTree } from './reachability-tree.ts';

/** One reindex operation: subtree sizes are cached for its duration only. */
export interface ReindexOp {
  readonly tree: ReachabilityTree;
  readonly slack: number;
  readonly sizes: Map<number, number>;
}

export function createReindexOp(tree: ReachabilityTree, slack: number): ReindexOp {
  return { tree, slack, sizes: new Map() };
}

/** Subtree sizes (the block itself included) of `block` and of every block under it, into `op.sizes`. */
function countSubtrees(op: ReindexOp, block: number): number {
  const known = op.sizes.get(block);
  if (known !== undefined) return known;
  const { tree, sizes } = op;
  // Breadth-first listing, then sums from the leaves up (reverse order): no recursion on deep chains.
  const order = [block];
  for (let i = 0; i < order.length; i++) {
    const x = order[i]!;
    if (i > 0 && sizes.has(x)) continue;
    for (const c of tree.children(x)) order.push(c);
  }
  tree.counters.subtreeVisits += order.length;
  for (let i = order.length - 1; i >= 0; i--) {
    const x = order[i]!;
    if (sizes.has(x)) continue;
    let sum = 1;
    for (const c of tree.children(x)) sum += sizes.get(c)!;
    sizes.set(x, sum);
  }
  return sizes.get(block)!;
}

/**
 * Re-splits the intervals of everything under `block` (its own interval fixed) by the exponential rule. With
 * `margin`, each block keeps up to `slack` free points at both ends of its children's space.
 */
function propagateInterval(op: ReindexOp, block: number, margin = false): void {
  countSubtrees(op, block);
  const { tree, sizes } = op;
  const queue = [block];
  for (let q = 0; q < queue.length; q++) {
    const x = queue[q]!;
    const kids = tree.children(x);
    if (kids.length === 0) continue;
    const kidSizes = kids.map((c) => sizes.get(c)!);
    let sizesSum = 0;
    for (const size of kidSizes) sizesSum += size;
    const capacity = tree.childrenCapacityEnd(x) + 1 - tree.start(x);
    const free = margin ? Math.min(op.slack, Math.floor((capacity - sizesSum) / 4)) : 0;
    const parts = splitExponentialSizes(capacity - 2 * free, kidSizes);
    let s = tree.start(x) + free;
    for (let i = 0; i < kids.length; i++) {
      tree.setInterval(kids[i]!, s, s + parts[i]! - 1);
      s += parts[i]!;
      queue.push(kids[i]!);
    }
  }
}

/** `newChild` was inserted with an empty interval: make room for it. */
export function reindexIntervals(op: ReindexOp, newChild: number, reindexRoot: number): void {
  const { tree } = op;
  tree.counters.reindexes++;
  let current = newChild;
  for (;;) {
    const size = tree.end(current) + 1 - tree.start(current);
    if (size >= countSubtrees(op, current)) break;
    const parent = tree.parent(current);
    assert(parent >= 0, 'reachability root is out of interval capacity');
    assert(current !== reindexRoot, `reindex root ${reindexRoot} is out of interval capacity`);
    if (tree.isStrictChainAncestor(parent, reindexRoot)) {
      // Above this point lies the root's subtree, where most blocks live; take slack along the chain instead,
      // asking for the subtree size of `current` so its capacity doubles.
      tree.counters.reindexesBeforeRoot++;
      reindexIntervalsEarlierThanRoot(op, current, reindexRoot, parent, op.sizes.get(current)!);
      return;
    }
    current = parent;
  }
  propagateInterval(op, current);
}

function reindexIntervalsEarlierThanRoot(
  op: ReindexOp,
  allocationBlock: number,
  reindexRoot: number,
  commonAncestor: number,
  required: number,
): void {
  const { tree } = op;
  const chosen = tree.nextChainAncestor(reindexRoot, commonAncestor);
  if (tree.start(allocationBlock) < tree.start(chosen)) reclaim(op, allocationBlock, commonAncestor, chosen, reindexRoot, required, true);
  else reclaim(op, allocationBlock, commonAncestor, chosen, reindexRoot, required, false);
}

/**
 * Takes `required` points from the slack kept before (or after) the chain blocks between `chosen` and the reindex
 * root, and hands them to `allocationBlock`, a sibling of `chosen` before (after) it. When the chain's slack is not
 * enough, the reindex root's own interval shrinks (it is large) and every chain block walked gets fresh slack.
 */
function reclaim(
  op: ReindexOp,
  allocationBlock: number,
  commonAncestor: number,
  chosen: number,
  reindexRoot: number,
  required: number,
  before: boolean,
): void {
  const { tree, slack } = op;
  const slackOf = (b: number): number => (before ? tree.remainingBeforeSize(b) : tree.remainingAfterSize(b));
  let slackSum = 0;
  let pathLen = 0;
  let pathSlackAlloc = 0;
  let current = chosen;
  for (;;) {
    if (current === reindexRoot) {
      const offset = required + slack * pathLen - slackSum;
      shrink(op, current, offset, before, true);
      offsetSiblings(op, allocationBlock, current, offset, before);
      pathSlackAlloc = slack;
      break;
    }
    const slackHere = slackOf(current);
    slackSum += slackHere;
    if (slackSum >= required) {
      const offset = slackHere - (slackSum - required);
      shrink(op, current, offset, before, false);
      offsetSiblings(op, allocationBlock, current, offset, before);
      break;
    }
    current = tree.nextChainAncestor(reindexRoot, current);
    pathLen++;
  }
  // Back down towards the common ancestor: each chain block gives up its slack beyond `pathSlackAlloc`.
  for (;;) {
    current = tree.parent(current);
    if (current === commonAncestor) break;
    const offset = slackOf(current) - pathSlackAlloc;
    assert(offset >= 0, `negative reclaim offset ${offset} at block ${current}`);
    shrink(op, current, offset, before, false);
    offsetSiblings(op, allocationBlock, current, offset, before);
  }
}

/** Moves the start of `block` up (before) or its end down (after) by `offset`. */
function shrink(op: ReindexOp, block: number, offset: number, before: boolean, propagate: boolean): void {
  const { tree } = op;
  if (before) tree.setInterval(block, tree.start(block) + offset, tree.end(block));
  else tree.setInterval(block, tree.start(block), tree.end(block) - offset);
  if (propagate) propagateInterval(op, block);
}

/**
 * Shifts the siblings between `current` and `allocationBlock` by `offset` towards `current`, and grows
 * `allocationBlock` by `offset` on its side facing `current`.
 */
function offsetSiblings(op: ReindexOp, allocationBlock: number, current: number, offset: number, before: boolean): void {
  const { tree } = op;
  const kids = tree.children(tree.parent(current));
  const at = kids.indexOf(current);
  assert(at >= 0, `block ${current} is missing from its parent's children`);
  const step = before ? -1 : 1;
  for (let i = at + step; i >= 0 && i < kids.length; i += step) {
    const sibling = kids[i]!;
    const s = tree.start(sibling);
    const e = tree.end(sibling);
    if (sibling === allocationBlock) {
      if (before) tree.setInterval(sibling, s, e + offset);
      else tree.setInterval(sibling, s - offset, e);
      propagateInterval(op, sibling);
      break;
    }
    if (before) tree.setInterval(sibling, s + offset, e + offset);
    else tree.setInterval(sibling, s - offset, e - offset);
    propagateInterval(op, sibling);
  }
}

/** Gives `parent`'s interval to its chain `child`, packing the other children tight with `slack` at both ends. */
export function concentrateInterval(op: ReindexOp, parent: number, child: number, isFinalRoot: boolean): void {
  const { tree, slack } = op;
  tree.counters.concentrations++;
  const kids = tree.children(parent);
  const at = kids.indexOf(child);
  assert(at >= 0, `block ${child} is missing from the children of ${parent}`);
  const beforeSum = tightenIntervals(op, kids.slice(0, at), tree.start(parent) + slack);
  const after = kids.slice(at + 1);
  let afterSum = 0;
  for (const c of after) afterSum += countSubtrees(op, c);
  tightenIntervals(op, after, tree.end(parent) - slack - afterSum);
  const allocStart = tree.start(parent) + beforeSum + slack;
  const allocEnd = tree.end(parent) - afterSum - slack - 1;
  const contained = allocStart <= tree.start(child) && tree.end(child) <= allocEnd;
  if (isFinalRoot && !contained) {
    // Re-split the subtree inside a narrower interval, so the next concentration likely finds it contained.
    // Unlike Kaspa, the re-split keeps slack margins at every level below too: laid flush, the next chain child
    // would fail this containment test at the very next root move, re-splitting the whole subtree under the root
    // every other chain block (measured: 46 interval writes per block without margins, 8 with).
    tree.setInterval(child, allocStart + slack, allocEnd - slack);
    propagateInterval(op, child, true);
  }
  tree.setInterval(child, allocStart, allocEnd);
}

/** Lays `blocks` out back to back from `start`, each exactly its subtree size; returns the total size. */
function tightenIntervals(op: ReindexOp, blocks: readonly number[], start: number): number {
  let s = start;
  for (const b of blocks) {
    const size = countSubtrees(op, b);
    op.tree.setInterval(b, s, s + size - 1);
    propagateInterval(op, b);
    s += size;
  }
  return s - start;
}
