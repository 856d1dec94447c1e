/**
 * Downloading a peer's pruning-point proof (docs/p2p.md "Fast sync"): the first page names the pruning point and the
 * proof's size; the rest are asked for by that point, so a peer whose point moves mid-download answers `notfound`
 * instead of mixing two proofs. The assembled bytes are decoded (pruning-proof-codec.ts); whether the proof holds is
 * the verifier's question (src/proof/verify-proof.ts), asked by the caller.
 */
import { blockHash } from '../consensus/pow.ts';
import { DecodeError } from '../errors.ts';
import type { PruningProof } from '../proof/pruning-proof.ts';
import { equalBytes, toHex } from '../util/bytes.ts';
import type { ProofPage } from './fast-sync.ts';
import { p2pPruningProofPageBytesMax } from './limits.ts';
import { MessageMalformedError, ProtocolViolationError } from './protocol-errors.ts';
import { decodePruningProof, proofPruningPoint } from './pruning-proof-codec.ts';

export interface FetchedPruningProof {
  readonly pruningPoint: Uint8Array;
  readonly proof: PruningProof;
}

/** Fetches every page through `requestPage`; a proof that does not decode or disagrees with its pages is the peer's fault (ban score 100). */
export async function fetchPruningProof(requestPage: (pruningPoint: Uint8Array, offset: number) => Promise<ProofPage>): Promise<FetchedPruningProof> {
  const first = await requestPage(new Uint8Array(32), 0);
  const bytes = new Uint8Array(first.total);
  bytes.set(first.page, 0);
  for (let offset = first.page.length; offset < first.total; offset += p2pPruningProofPageBytesMax) {
    const next = await requestPage(first.pruningPoint, offset);
    if (next.total !== first.total) {
      throw new ProtocolViolationError(`proof page at ${offset} says the proof has ${next.total} bytes; the first page said ${first.total}`);
    }
    bytes.set(next.page, offset);
  }
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
