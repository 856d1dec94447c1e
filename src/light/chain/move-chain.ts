/**
 * Moving a selected-chain index to a new tip: the light chain's graph (graph.ts) and its mirror in the page
 * (web/light/chain-mirror.ts) both keep chain block ids by height. Types only besides: the page's mirror imports it
 * without the verifier.
 */
import type { IndexedBlock } from '../../chain/block-index.ts';
import type { BlockId } from '../../consensus/ghostdag.ts';

/** Moves the selected chain index to end at `next` (a reorganisation rewrites from the fork point). */
export function moveChainTo(graph: { readonly chainIds: BlockId[]; tip: IndexedBlock }, next: IndexedBlock): void {
  const { chainIds } = graph;
  chainIds.length = Math.min(chainIds.length, next.height + 1);
  for (let walk: IndexedBlock | null = next; walk && chainIds[walk.height] !== walk.id; walk = walk.selectedParent) {
    chainIds[walk.height] = walk.id;
  }
  graph.tip = next;
}
