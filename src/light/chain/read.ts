/** What a light chain answers about itself: the selected chain by height, its locator, the proof it joined with. */
import type { IndexedBlock } from '../../chain/block-index.ts';
import type { VerifiedProof } from '../../pruning-proof/verify-proof.ts';
import { verifyJoinProof } from '../light-join.ts';
import type { LightChainState } from './state.ts';

const locatorDenseEntries = 10;
const locatorEntriesMax = 64;

/** The block at `height` on the selected chain (undefined below a join's trusted blocks). */
export function blockAtHeight(state: LightChainState, height: number): IndexedBlock | undefined {
  const id = state.graph.chainIds[height];
  return id === undefined ? undefined : state.graph.index.get(id);
}

/** Selected-chain hashes, tip first, one apart for ten then doubling, ending at genesis (docs/p2p.md). */
export function chainLocator(state: LightChainState): Uint8Array[] {
  const { tip, chainIds, index, joined } = state.graph;
  const lowest = joined?.lowestChain.height ?? 0;
  const out: Uint8Array[] = [];
  let height = tip.height;
  let step = 1;
  while (height > lowest && out.length < locatorEntriesMax - 2) {
    out.push(index.get(chainIds[height]!)!.hash);
    if (out.length >= locatorDenseEntries) step *= 2;
    height -= step;
  }
  if (joined !== undefined && joined.lowestChain.id !== state.genesis.id) out.push(joined.lowestChain.hash);
  out.push(state.genesis.hash);
  return out;
}

/** The verified proof of the current join (verified again, once, after a reload); undefined from genesis. */
export function joinProof(state: LightChainState): VerifiedProof | undefined {
  const joined = state.graph.joined;
  if (joined === undefined) return undefined;
  // The stored proof verified when it was joined; a reload verifies it again only to compare it with another.
  joined.verified ??= verifyJoinProof(state.params, joined.checked.proof);
  return joined.verified;
}
