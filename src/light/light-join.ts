/**
 * Joining at a pruning point (docs/web.md "Joining at a pruning point"; docs/pruning-proof.md "The tab"): the tab asks
 * its node for the pruning-point proof and verifies it (src/pruning-proof/verify-proof.ts), then takes the trusted data for
 * the proven point and checks it the way a joining full node does (src/chain/trusted-check.ts), headers only. The
 * light chain then hangs the trusted blocks from a virtual origin and verifies every header above them with the full
 * node's header stages (light-chain.ts).
 *
 * Where the two halves come from is a port: the proof over the p2p session's `getpruningproof` pages (light-sync.ts),
 * the trusted data from whatever the caller wires in.
 */
import type { CheckedTrustedData } from '../chain/trusted-check.ts';
import { checkTrustedData } from '../chain/trusted-check.ts';
import type { TrustedData } from '../chain/trusted-data.ts';
import { TrustedDataError } from '../chain/trusted-errors.ts';
import { decodeHeader, encodeHeader } from '../codec/header.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { blockHash } from '../consensus/pow.ts';
import type { WitnessVerifier } from '../crypto/witness-check.ts';
import { DecodeError } from '../errors.ts';
import { ProofError } from '../pruning-proof/proof-errors.ts';
import { proofParamsOf } from '../pruning-proof/level-dag.ts';
import type { PruningProof } from '../pruning-proof/pruning-proof.ts';
import { verifyPruningProof, type VerifiedProof } from '../pruning-proof/verify-proof.ts';
import { decodePruningProof, encodePruningProof } from '../p2p/pruning-proof-codec.ts';
import { toHex } from '../util/bytes.ts';
import { LightSyncError } from './errors.ts';
import type { StoredJoin } from './light-store.ts';

/** A join whose proof and trusted data passed every check. */
export interface CheckedJoin {
  readonly proof: PruningProof;
  readonly verified: VerifiedProof | undefined;
  readonly trusted: CheckedTrustedData;
}

/** The tab checks no bodies: the blocks come to it without transactions, so this is never asked. */
const noBodies: WitnessVerifier = {
  name: 'light-no-bodies',
  verifyWitnesses() {
    throw new Error('the light chain checks no transaction bodies');
  },
};

const headersOnly = (trusted: TrustedData): TrustedData => ({
  pruningPoint: trusted.pruningPoint,
  blocks: trusted.blocks.map(({ header, height, ghostdag }) => ({ header, height, ghostdag })),
});

/** verifyPruningProof, with a ProofError as the LightSyncError the page shows. */
export function verifyJoinProof(params: NetworkParams, proof: PruningProof): VerifiedProof {
  try {
    return verifyPruningProof(proof, proofParamsOf(params));
  } catch (error) {
    if (error instanceof ProofError) {
      throw new LightSyncError('proof-invalid', `the node's pruning-point proof was refused (${error.reason}): ${error.message}`, { proofReason: error.reason, cause: error });
    }
    throw error;
  }
}

function checkTrusted(params: NetworkParams, trusted: TrustedData, point: Uint8Array, nowMs: number): CheckedTrustedData {
  try {
    return checkTrustedData(params, headersOnly(trusted), point, nowMs, noBodies);
  } catch (error) {
    if (error instanceof TrustedDataError) {
      throw new LightSyncError('trusted-invalid', `the trusted data for pruning point ${toHex(point)} was refused (${error.reason}): ${error.message}`, { trustedReason: error.reason, cause: error });
    }
    throw error;
  }
}

/** Verifies a fresh join: the proof (unless `verified` is its verification), then the trusted data against its point. Throws LightSyncError. */
export function checkJoin(params: NetworkParams, proof: PruningProof, trusted: TrustedData, nowMs: number, verified = verifyJoinProof(params, proof)): CheckedJoin {
  return { proof, verified, trusted: checkTrusted(params, trusted, blockHash(verified.pruningPoint), nowMs) };
}

/** The join as the store keeps it. */
export function storedJoinOf(join: CheckedJoin): StoredJoin {
  return {
    pruningPoint: join.trusted.point.hash,
    proof: encodePruningProof(join.proof),
    blocks: join.trusted.blocks.map(({ block }) => ({ header: encodeHeader(block.header), height: block.height, ghostdag: block.ghostdag })),
  };
}

/**
 * A stored join, read back: the store is the tab's own, but what IndexedDB returns is input — it is decoded and the
 * trusted blocks checked again (cheap: a few hundred headers); the proof is not verified again. Undefined when it does
 * not decode or check (the caller clears the store and syncs afresh).
 */
export function reopenJoin(params: NetworkParams, stored: StoredJoin, nowMs: number): CheckedJoin | undefined {
  try {
    const proof = decodePruningProof(stored.proof);
    const blocks = stored.blocks.map((b) => ({ header: decodeHeader(b.header), height: b.height, ghostdag: b.ghostdag }));
    return { proof, verified: undefined, trusted: checkTrusted(params, { pruningPoint: stored.pruningPoint, blocks }, stored.pruningPoint, nowMs) };
  } catch (error) {
    if (error instanceof DecodeError || error instanceof LightSyncError || error instanceof TypeError) return undefined;
    throw error;
  }
}

/**
 * A tab more than a pruning window (pruningDepth + finalityDepth blue score) behind its node joins again at the
 * node's pruning point instead of downloading every header between (docs/web.md "Joining at a pruning point"): the
 * headers it would skip are below that point, where no balance or transaction proof is asked for any more.
 */
export function farBehind(params: Pick<NetworkParams, 'pruningDepth' | 'finalityDepth'>, tipBlueScore: number, nodeBlueScore: number): boolean {
  return nodeBlueScore - tipBlueScore > params.pruningDepth + params.finalityDepth;
}
