/**
 * Trusted data (docs/pruning-proof.md "Trusted data"; Kaspa's `PruningPointTrustedData` and the pruning point's
 * anticone sent as full blocks): what a chain needs to validate every block above a pruning point P without P's past.
 *
 * The set T, built from a live chain (archive or pruned: a pruned node keeps T's headers and consensus rows, header-pruning.ts):
 *
 * - A = {P} ∪ (anticone(P) ∩ past(virtual)): full blocks, since the blocks above P accept their transactions;
 * - F0 = the highest block of P's selected chain in the past of every block of A (P itself when A = {P});
 * - the floor = P's chain block at height max(0, height(F0) − trustedChainDepth(params));
 * - T = A ∪ every block of past(P) whose blue score is ≥ the floor's: the chain blocks from the floor to P and the
 *   members of their mergesets that clear that score. Headers only below P.
 *
 * |T| ≤ |A| + (height(P) − height(floor) + 1) · mergesetSizeLimit. Because blue score grows along every edge, any
 * path between two blocks of T runs inside T, so reachability among them is exact with everything below hanging from
 * a virtual origin; trustedChainDepth covers the DAA window, the past median time, the merge depth root and the
 * k-cluster walks of GHOSTDAG's colouring (finality is clamped at P on a joined chain: it is below every finality
 * point its blocks can see).
 */
import type { BlockId } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { fromHex } from '../util/bytes.ts';
import { chainAncestorAt, type IndexedBlock } from './block-index.ts';
import type { Chain, TrustedBlock, TrustedData } from './chain-types.ts';

export type { TrustedBlock, TrustedData } from './chain-types.ts';
import { TrustedDataError } from './trusted-errors.ts';

/** Chain heights below min(P, F0) a joined chain must know: what the rules of the blocks above P read. */
export function trustedChainDepth(params: Pick<NetworkParams, 'daaWindowBlocks' | 'pastMedianTimeWindow' | 'mergeDepth' | 'ghostdagK'>): number {
  return Math.max(params.daaWindowBlocks, params.pastMedianTimeWindow, params.mergeDepth, params.ghostdagK + 1);
}

/** P's anticone within the past of the chain's virtual: the mergesets of the chain blocks above P, and the virtual's. */
function anticoneOf(chain: Chain, point: IndexedBlock): Set<BlockId> {
  const { engine } = chain;
  const out = new Set<BlockId>();
  const consider = (ids: readonly BlockId[]): void => {
    for (const id of ids) if (id !== point.id && !engine.isDagAncestorOf(point.id, id) && !engine.isDagAncestorOf(id, point.id)) out.add(id);
  };
  const tip = chain.selectedTip();
  for (let h = point.height + 1; h <= tip.height; h++) {
    const data = chain.ghostdag(chain.blockAtHeight(h)!.id);
    consider([...data.mergesetBlues, ...data.mergesetReds]);
  }
  const virtual = chain.virtualParents().ghostdag;
  consider([...virtual.mergesetBlues, ...virtual.mergesetReds]);
  return out;
}

/** The highest block of `point`'s chain in the past of every block of `anticone` (and `point` itself); header pruning keeps what lies above it. */
export function commonChainBlock(chain: Pick<Chain, 'engine'>, point: IndexedBlock, anticone: Iterable<BlockId>): IndexedBlock {
  const members = [...anticone];
  let walk: IndexedBlock | null = point;
  while (walk && !members.every((id) => chain.engine.isDagAncestorOf(walk!.id, id))) walk = walk.selectedParent;
  return walk ?? point;
}

/** Builds T at `pruningPoint`, which must be on the chain's virtual selected chain. */
export function buildTrustedData(chain: Chain, pruningPoint: BlockId): TrustedData {
  const { engine } = chain;
  const point = chain.get(pruningPoint);
  const tip = chain.selectedTip();
  if (point === undefined || (point.id !== tip.id && !engine.isChainAncestorOf(point.id, tip.id))) {
    throw new TrustedDataError('import-state', `${pruningPoint} is not a block of this chain's selected chain`);
  }
  const anticone = anticoneOf(chain, point);
  const common = commonChainBlock(chain, point, anticone);
  const floor = chainAncestorAt(point, Math.max(0, common.height - trustedChainDepth(chain.params)));
  const floorScore = floor.header.blueScore;
  const members = new Set<BlockId>(anticone);
  for (let walk: IndexedBlock | null = point; walk && walk.height >= floor.height; walk = walk.selectedParent) {
    members.add(walk.id);
    const data = chain.ghostdag(walk.id);
    for (const id of [...data.mergesetBlues, ...data.mergesetReds]) if (chain.get(id)!.header.blueScore >= floorScore) members.add(id);
  }
  const ordered = [...members].sort((a, b) => engine.compareBlocks(a, b));
  const blocks = ordered.map((id): TrustedBlock => {
    const entry = chain.get(id)!;
    const { mergesetSize: _size, ...ghostdag } = chain.ghostdag(id);
    if (id !== point.id && !anticone.has(id)) return { header: entry.header, height: entry.height, ghostdag };
    const body = chain.getBlock(id);
    if (body === undefined) throw new TrustedDataError('import-state', `block ${id} of the pruning point's anticone has no body here`);
    return { header: entry.header, height: entry.height, ghostdag, transactions: body.transactions };
  });
  const stateRecord = chain.pruningPointRecord(point.id);
  return { pruningPoint: fromHex(point.id), blocks, ...(stateRecord ? { stateRecord } : {}) };
}
