/**
 * Downloading a peer's pruning-point proof (docs/p2p.md "Fast sync") in pages (paged-fetch.ts). The assembled bytes are decoded (pruning-proof-codec.ts); whether the proof holds is
 * the verifier's question (src/pruning-proof/verify-proof.ts), asked by the caller.
 */
import { blockHash } from '../consensus/pow.ts';
import { DecodeError } from '../errors.ts';
import type { PruningProof } from '../pruning-proof/pruning-proof.ts';
import { equalBytes, toHex } from '../util/bytes.ts';
import { fetchPages, type ProofPage } from './paged-fetch.ts';
import { MessageMalformedError, ProtocolViolationError } from './protocol-errors.ts';
import { decodePruningProof, proofPruningPoint } from './pruning-proof-codec.ts';

export interface FetchedPruningProof {
  readonly pruningPoint: Uint8Array;
  readonly proof: PruningProof;
}

/** Fetches every page through `requestPage`; a proof that does not decode or disagrees with its pages is the peer's fault (ban score 100). */
export async function fetchPruningProof(requestPage: (pruningPoint: Uint8Array, offset: number) => Promise<ProofPage>): Promise<FetchedPruningProof> {
  const first = await fetchPages('proof', new Uint8Array(32), requestPage);
  const bytes = first.bytes;
  let proof: PruningProof;
  try {
    proof = decodePruningProof(bytes);
  } catch (error) {
    if (error instanceof DecodeError) throw new MessageMalformedError(`pruning proof: ${error.message}`, error);
    throw error;
  }
  const point = proofPruningPoint(proof);
  if (point === undefined || !equalBytes(blockHash(point), first.pruningPoint)) {
    throw new ProtocolViolationError(`the proof's last level-0 header is not the pruning point ${toHex(first.pruningPoint)} its pages named`);
  }
  return { pruningPoint: first.pruningPoint, proof };
}
