/**
 * The pruning point (docs/storage.md "Pruning"; rusty-kaspa's PruningPointManager): a selected-chain block at least
 * `pruningDepth` blue score below the selected tip, chosen only among the first chain blocks of each finality
 * interval (blue scores [m·finalityDepth, (m+1)·finalityDepth)), so it moves in steps of about one finality depth
 * and every node on the same chain picks the same blocks. Below it a pruned node keeps headers and consensus data
 * and deletes the rest.
 *
 * pruningDepth > finalityDepth, so the pruning point is always below the finality point: on the virtual's selected
 * chain for good, and never moved backwards by a reorganisation.
 */
import type { NetworkParams } from '../consensus/params.ts';
import { chainAncestorAt, type IndexedBlock } from './block-index.ts';
import { chainBlockAtBlueScore } from './depth-rules.ts';

/**
 * The pruning point seen from `selectedTip`, or `current` when it has not moved past it. The candidate is the first
 * chain block of the finality interval that holds the deepest chain block at least `pruningDepth` below the tip:
 * two binary searches over chain heights, so the cost does not grow with how far the point moves.
 */
export function nextPruningPoint(params: Pick<NetworkParams, 'finalityDepth' | 'pruningDepth'>, selectedTip: IndexedBlock, current: IndexedBlock): IndexedBlock {
  const limit = selectedTip.header.blueScore - params.pruningDepth;
  // The point moves only into a later finality interval: most tips are answered here, without a search.
  if (limit < (Math.floor(current.header.blueScore / params.finalityDepth) + 1) * params.finalityDepth) return current;
  const deepest = chainBlockAtBlueScore(selectedTip, limit);
  const boundary = Math.floor(deepest.header.blueScore / params.finalityDepth) * params.finalityDepth;
  if (boundary <= current.header.blueScore || boundary === 0) return current;
  // The last chain block below the boundary; the next one up the chain is the first of the interval.
  const below = chainBlockAtBlueScore(deepest, boundary - 1);
  const first = below.height + 1 <= deepest.height ? chainAncestorAt(deepest, below.height + 1) : deepest;
  return first.header.blueScore > current.header.blueScore ? first : current;
}

/**
 * The pruning point before `point` on its chain: the first chain block of the finality interval below `point`'s
 * (genesis below the second interval). A block mined just before the point moved still commits it (version 2), so a
 * pruned node keeps its header (header-pruning.ts).
 */
export function previousPruningPoint(params: Pick<NetworkParams, 'finalityDepth'>, point: IndexedBlock, genesis: IndexedBlock): IndexedBlock {
  const boundary = (Math.floor(point.header.blueScore / params.finalityDepth) - 1) * params.finalityDepth;
  if (boundary <= 0) return genesis;
  const below = chainBlockAtBlueScore(point, boundary - 1);
  return chainAncestorAt(point, below.height + 1);
}
