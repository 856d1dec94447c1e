/**
 * Finality and bounded merge depth (docs/consensus.md "Finality and merge depth"; rusty-kaspa's DepthManager and
 * `check_bounded_merge_depth`). Both read points on a block's selected chain by blue score:
 *
 * - the merge depth root of a block: the highest block of its selected chain (from the selected parent down) whose
 *   blue score is at most blueScore − mergeDepth. A red block of the mergeset outside the root's future may be merged
 *   only when a "kosherizing" blue of the same mergeset, itself in the root's future, already has it in its past;
 * - the finality point of the virtual: the same walk from the selected tip with finalityDepth. The virtual selected
 *   chain never leaves it: a block that would take the selected tip onto a chain without it is a finality conflict.
 */
import type { BlockId, GhostdagData, GhostdagEngine } from '../consensus/ghostdag.ts';
import { chainAncestorAt, type IndexedBlock } from './block-index.ts';

/**
 * The highest block on `block`'s selected chain (itself included) with blue score ≤ `blueScore`; genesis when none.
 * Each chain step adds at least one to the blue score, so the answer lies at a height within `block.blueScore −
 * blueScore` of the block: a binary search over those heights, each probe an O(log n) skip-pointer walk.
 */
export function chainBlockAtBlueScore(block: IndexedBlock, blueScore: number): IndexedBlock {
  if (block.header.blueScore <= blueScore) return block;
  // Heights [lo, hi]: lo always qualifies (≤ blueScore), hi + 1 never does.
  let lo = Math.max(0, block.height - (block.header.blueScore - blueScore));
  let hi = block.height - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (chainAncestorAt(block, mid).header.blueScore <= blueScore) lo = mid;
    else hi = mid - 1;
  }
  return chainAncestorAt(block, lo);
}

/** The merge depth root of a block whose selected parent is `selectedParent` and blue score `blueScore`. */
export function mergeDepthRoot(selectedParent: IndexedBlock, blueScore: number, mergeDepth: number): IndexedBlock {
  return chainBlockAtBlueScore(selectedParent, blueScore - mergeDepth);
}

/** The finality point seen from a selected tip: its chain block `finalityDepth` blue score below it (or genesis). */
export function finalityPoint(selectedTip: IndexedBlock, finalityDepth: number): IndexedBlock {
  return chainBlockAtBlueScore(selectedTip, selectedTip.header.blueScore - finalityDepth);
}

const inFutureOf = (engine: GhostdagEngine, root: BlockId, id: BlockId): boolean => id === root || engine.isDagAncestorOf(root, id);

/**
 * The reds of a mergeset that break bounded merge depth: outside the root's future and in the past of no kosherizing
 * blue (a mergeset blue in the root's future). Empty when the block may merge everything it merges.
 */
export function mergeDepthViolations(engine: GhostdagEngine, data: GhostdagData, root: BlockId): BlockId[] {
  const deep = data.mergesetReds.filter((red) => !inFutureOf(engine, root, red));
  if (deep.length === 0) return deep;
  // Rare (a merge of an old side branch), so the kosherizing blues are only listed when needed.
  const kosherizing = data.mergesetBlues.filter((blue) => inFutureOf(engine, root, blue));
  return deep.filter((red) => !kosherizing.some((blue) => engine.isDagAncestorOf(red, blue)));
}
