/**
 * Block signatures off the main thread (issue 29 "verify once"): before a block's synchronous stages run, its
 * proofs go to an asynchronous verifier — the node's worker pool behind the verification cache — so the stages'
 * synchronous verifier, reading the same cache, finds every valid signature there and verifies nothing itself.
 * Signatures admission already verified are cache hits here too and never reach a worker.
 *
 * Only a body whose cheap checks pass (sizes, decoding, mass, merkle root) is verified: a malformed block is left
 * to the stages, which refuse it before any signature. Nothing here decides validity; the stages do.
 */
import type { Block } from '../codec/block.ts';
import type { NetworkParams } from '../consensus/params.ts';
import type { AsyncWitnessVerifier } from '../crypto/witness-check.ts';
import { bodyProofChecks } from './validate-body.ts';

export function createBodyPreverifier(params: NetworkParams, verifier: AsyncWitnessVerifier): (block: Block) => Promise<void> {
  return async (block) => {
    let checks;
    try {
      // Shaped once: the stages find this block's decoded body and checks again (validate-body.ts).
      checks = bodyProofChecks(block, params);
    } catch {
      return; // the stages throw the same rule error, with nothing verified
    }
    if (checks.length === 0) return;
    try {
      await verifier.verifyWitnesses(checks);
    } catch {
      // A saturated or closed pool: the stages' synchronous verifier does the work instead.
    }
  };
}
