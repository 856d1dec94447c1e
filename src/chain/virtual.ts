/**
 * The virtual block (notes/ghostdag-kaspa.md §1.8): the block that would be mined now. Its parents are the best
 * tips (the selected tip first, at most maxParents, dropping the weakest while the mergeset would break its limit,
 * and leaving out tips whose merge would break bounded merge depth); templates mine on exactly these parents and
 * the ledger's virtual view accepts exactly this mergeset.
 */
import type { BlockId, GhostdagData, GhostdagEngine } from '../consensus/ghostdag.ts';
import { MergesetTooLargeError } from '../consensus/ghostdag-errors.ts';
import type { NetworkParams } from '../consensus/params.ts';
import type { IndexedBlock } from './block-index.ts';
import { mergeDepthRoot, mergeDepthViolations } from './depth-rules.ts';

function chooseVirtualParents(engine: GhostdagEngine, tips: readonly BlockId[], maxParents: number): { parents: BlockId[]; ghostdag: GhostdagData } {
  let parents = engine.virtualParents(tips, maxParents);
  for (;;) {
    try {
      return { parents, ghostdag: engine.computeBlock(parents, 1n) };
    } catch (cause) {
      if (!(cause instanceof MergesetTooLargeError) || parents.length === 1) throw cause;
      parents = parents.slice(0, -1);
    }
  }
}

/** The virtual's parents among `tips`, leaving out tips whose merge would break bounded merge depth (rusty-kaspa's remove_bounded_merge_breaking_parents). */
export function virtualParentsWithinMergeDepth(
  engine: GhostdagEngine,
  lookup: (id: BlockId) => IndexedBlock | undefined,
  tips: readonly BlockId[],
  params: Pick<NetworkParams, 'maxParents' | 'mergeDepth'>,
): { parents: BlockId[]; ghostdag: GhostdagData } {
  const chosen = chooseVirtualParents(engine, tips, params.maxParents);
  const root = mergeDepthRoot(lookup(chosen.ghostdag.selectedParent!)!, chosen.ghostdag.blueScore, params.mergeDepth);
  const deep = mergeDepthViolations(engine, chosen.ghostdag, root.id);
  if (deep.length === 0) return chosen;
  const kept = chosen.parents.filter((p) => !deep.some((red) => red === p || engine.isDagAncestorOf(red, p)));
  return chooseVirtualParents(engine, kept, params.maxParents);
}

/**
 * Consensus order of a block's mergeset from its GHOSTDAG data (the block need not be stored yet): the selected
 * parent first, then every other mergeset block, blue or red, ascending by (blue work, hash) — what
 * `engine.orderedMergeset` gives for stored blocks (Kaspa's consensus_ordered_mergeset).
 */
export function orderedMergesetOf(engine: GhostdagEngine, data: GhostdagData): BlockId[] {
  if (data.selectedParent === null) return [];
  const rest = data.mergesetBlues.slice(1).concat(data.mergesetReds);
  rest.sort((a, b) => engine.compareBlocks(a, b));
  return [data.selectedParent, ...rest];
}
