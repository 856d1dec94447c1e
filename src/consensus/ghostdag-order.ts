/**
 * GHOSTDAG's one ordering primitive (Kaspa's `SortableBlock`: blue work, then hash) and the virtual-parent choice
 * built on it (a simplified, deterministic `pick_virtual_parents` of rusty-kaspa `virtual_processor/processor.rs`).
 */
import { MergesetTooLargeError, UnknownBlockError } from './ghostdag-errors.ts';
import type { BlockId, GhostdagEngine } from './ghostdag-types.ts';

export interface SortableBlock {
  readonly id: BlockId;
  readonly blueWork: bigint;
}

/**
 * Hash order: the 32 hash bytes compared in order. For BlockIds of equal-length lowercase hex that is plain string
 * order (and for ASCII ids zero-filled to 32 bytes, as in Kaspa's vectors, too: a shorter prefix sorts first).
 */
export function compareHashesDefault(a: BlockId, b: BlockId): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Ascending (blue work, hash): negative when `a` sorts first. The selected parent is the maximum. */
export function compareBlueWork(
  a: SortableBlock,
  b: SortableBlock,
  compareHashes: (a: BlockId, b: BlockId) => number = compareHashesDefault,
): number {
  if (a.blueWork !== b.blueWork) return a.blueWork < b.blueWork ? -1 : 1;
  return compareHashes(a.id, b.id);
}

export type VirtualParentsView = Pick<GhostdagEngine, 'get' | 'isDagAncestorOf' | 'computeBlock' | 'compareBlocks'>;

/**
 * Parents for a block template: the best tip (the selected tip, highest blue work) first, then the others in
 * descending (blue work, hash) while fewer than `maxParents`, skipping a candidate that is not in the anticone of
 * those chosen (tips never are; the check guards callers passing non-tips) or that would push the mergeset past the
 * limit. Kaspa shuffles part of the candidates for diversity between miners; Weft stays deterministic (no rng).
 */
export function selectVirtualParents(view: VirtualParentsView, tips: readonly BlockId[], maxParents: number): BlockId[] {
  const candidates = [...new Set(tips)];
  for (const id of candidates) if (view.get(id) === undefined) throw new UnknownBlockError(id, 'tip');
  candidates.sort((a, b) => view.compareBlocks(b, a));
  const chosen: BlockId[] = [];
  for (const candidate of candidates) {
    if (chosen.length >= maxParents) break;
    if (chosen.some((c) => view.isDagAncestorOf(c, candidate) || view.isDagAncestorOf(candidate, c))) continue;
    if (chosen.length > 0) {
      try {
        view.computeBlock([...chosen, candidate], 1n);
      } catch (err) {
        if (err instanceof MergesetTooLargeError) continue;
        throw err;
      }
    }
    chosen.push(candidate);
  }
  return chosen;
}
