/**
 * A tab joins at its node's pruning point: when it is fresh, far behind, or has outgrown its root. The checks of a
 * join live in light-join.ts (they know nothing of the chain); this file decides when to join and hands the checked
 * join to the LightChain, so neither file imports the other's importers (no import cycle).
 */
import type { TrustedData } from '../chain/trusted-data.ts';
import { blockHash } from '../consensus/pow.ts';
import { requireHeavierProof } from '../pruning-proof/compare-proofs.ts';
import { ProofError } from '../pruning-proof/proof-errors.ts';
import { proofParamsOf } from '../pruning-proof/level-dag.ts';
import type { PruningProof } from '../pruning-proof/pruning-proof.ts';
import { toHex } from '../util/bytes.ts';
import { LightSyncError } from './errors.ts';
import type { LightChain } from './light-chain.ts';
import { checkJoin, farBehind, verifyJoinProof } from './light-join.ts';

/** Where a tab's join comes from: the node's proof (undefined: it serves none), and trusted data for a proven point. */
export interface LightJoinSource {
  pruningProof(): Promise<PruningProof | undefined>;
  trustedData(pruningPoint: Uint8Array): Promise<TrustedData>;
}

/**
 * The tab's own tip commits (version 2) to a pruning point more than a pruning window above the block its chain hangs
 * from (the join's point, or genesis): the headers below that point are no longer needed, and the tab joins again at
 * the node's point. With farBehind this bounds what a tab holds to about two pruning windows above its root, plus
 * the trusted blocks, however long it stays open (docs/web.md "Joining at a pruning point").
 */
export function outgrown(chain: Pick<LightChain, 'params' | 'joinedAt' | 'genesis' | 'selectedTip' | 'get'>): boolean {
  const { pruningDepth, finalityDepth } = chain.params;
  const root = chain.joinedAt() ?? chain.genesis;
  const committed = chain.selectedTip().header.pruningPoint;
  const point = committed === undefined ? undefined : chain.get(toHex(committed));
  return point !== undefined && point.header.blueScore - root.header.blueScore > pruningDepth + finalityDepth;
}

/** What joinFromNode did: joined at the node's point, or left the chain as it was (headers follow from its tip). */
export type JoinOutcome = 'joined' | 'no-proof' | 'not-needed';

/**
 * A fresh tab (genesis only), one far behind its node, or one that outgrew its root asks for the node's proof and
 * joins at its point. A node
 * without a proof (a version 1 network answers `notfound`), or whose point the chain already holds less than a
 * pruning window above its root, leaves the chain as it is. A tab that joined before keeps its join unless the node's proof beats its own (compareProofs: a lighter
 * fork loses, `proof-invalid` with `insufficient-work`). Throws LightSyncError; nothing changes before every check passed.
 */
export async function joinFromNode(chain: LightChain, source: LightJoinSource, node: { readonly blueScore: number; readonly blueWork: bigint }, nowMs: number): Promise<JoinOutcome> {
  const { params } = chain;
  const tip = chain.selectedTip();
  const fresh = chain.joinedAt() === undefined && tip.id === chain.genesis.id;
  if (!fresh && !farBehind(params, tip.header.blueScore, node.blueScore) && !outgrown(chain)) return 'not-needed';
  const proof = await source.pruningProof();
  if (proof === undefined) return 'no-proof';
  const verified = verifyJoinProof(params, proof);
  if (verified.pruningPointId === chain.genesis.id) return 'not-needed';
  // A point the tab holds is joined at only when it leaves a pruning window of headers behind (outgrown).
  const held = chain.get(verified.pruningPointId);
  const root = chain.joinedAt() ?? chain.genesis;
  if (held !== undefined && held.header.blueScore - root.header.blueScore <= params.pruningDepth + params.finalityDepth) return 'not-needed';
  const defender = chain.joinProof();
  if (defender !== undefined) {
    try {
      requireHeavierProof({ proof: defender, tipBlueWork: tip.header.blueWork }, { proof: verified, tipBlueWork: node.blueWork }, proofParamsOf(params));
    } catch (error) {
      if (error instanceof ProofError) {
        throw new LightSyncError('proof-invalid', `the node's pruning-point proof does not beat the one this tab joined with (${error.reason}): ${error.message}`, { proofReason: error.reason, cause: error });
      }
      throw error;
    }
  }
  const trusted = await source.trustedData(blockHash(verified.pruningPoint));
  await chain.join(checkJoin(params, proof, trusted, nowMs, verified));
  return 'joined';
}
