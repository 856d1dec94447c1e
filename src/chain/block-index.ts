/**
 * The in-memory index of every known block: its header, hash, height on its selected-parent chain and a skip
 * pointer so that "the ancestor of X at height h on X's selected chain" costs O(log n) (Bitcoin Core's pskip),
 * which the difficulty window and the chain index need on every block.
 */
import type { BlockHeader } from '../codec/header.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import { assert } from '../errors.ts';

export interface IndexedBlock {
  readonly id: BlockId;
  readonly hash: Uint8Array;
  readonly header: BlockHeader;
  /** Selected parent, null for genesis. */
  readonly selectedParent: IndexedBlock | null;
  /** Length of the selected-parent chain from genesis (genesis = 0). */
  readonly height: number;
  /** An ancestor on the selected chain at height skipHeight(height), for O(log n) jumps. */
  readonly skip: IndexedBlock | null;
  /** Insertion order, also the key of the block in the store's topological order table. */
  readonly seq: number;
}

// Bitcoin Core's GetSkipHeight: turns the lowest set bit off, twice for odd heights, which keeps every jump
// sequence O(log n) while the pointers stay fixed once a block is indexed.
function invertLowestOne(n: number): number {
  return n & (n - 1);
}

function skipHeight(height: number): number {
  if (height < 2) return 0;
  return height & 1 ? invertLowestOne(invertLowestOne(height - 1)) + 1 : invertLowestOne(height);
}

/** The skip pointer of a block at `height` whose selected parent is `selectedParent` (null when there is none). */
export function skipPointer(selectedParent: IndexedBlock | null, height: number): IndexedBlock | null {
  return selectedParent ? chainAncestorAt(selectedParent, skipHeight(height)) : null;
}

export function createIndexedBlock(
  id: BlockId,
  hash: Uint8Array,
  header: BlockHeader,
  selectedParent: IndexedBlock | null,
  seq: number,
): IndexedBlock {
  const height = selectedParent ? selectedParent.height + 1 : 0;
  return { id, hash, header, selectedParent, height, skip: skipPointer(selectedParent, height), seq };
}

/**
 * The block at `height` on `block`'s selected chain (itself when heights match). A chain that joined at a pruning
 * point knows nothing below its trusted blocks: there the answer is the lowest block it knows (docs/pruning-proof.md
 * "Trusted data" bounds the walks so that no rule reads below it; binary searches over heights still probe there).
 */
export function chainAncestorAt(block: IndexedBlock, height: number): IndexedBlock {
  assert(height >= 0 && height <= block.height, `ancestor height ${height} outside 0..${block.height}`);
  let walk: IndexedBlock = block;
  while (walk.height > height) {
    const skip = walk.skip;
    const skipTo = skip ? skip.height : -1;
    const sp = walk.selectedParent;
    const spSkipTo = sp ? skipHeight(sp.height) : -1;
    // Take the skip pointer unless it overshoots, or the parent's skip gets there no slower (Bitcoin's rule).
    if (skip && (skipTo === height || (skipTo > height && !(spSkipTo < skipTo - 2 && spSkipTo >= height)))) {
      walk = skip;
    } else if (sp) {
      walk = sp;
    } else {
      return walk;
    }
  }
  return walk;
}
