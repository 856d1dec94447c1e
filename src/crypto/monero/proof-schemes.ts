/**
 * The witness-check port's privacy schemes (src/crypto/witness-check.ts `witnessSchemes`): CLSAG ring signatures and
 * aggregated Bulletproofs+ range proofs, as checks whose fields survive structured cloning (byte arrays and arrays
 * of them), so the node's worker pool runs them like any other scheme. Each checker answers false for anything
 * malformed and never throws; the confidential kinds (src/kinds/confidential/) build the checks. Range proofs also
 * have a batch checker: every proof of a block (or of a worker's chunk) in one Bulletproofs+ batch equation, with
 * single checks only when the batch fails, to say which proof is bad.
 */
import { verifyClsag } from './clsag.ts';
import { PrivacyEncodingError, PrivacyProofError } from './errors.ts';
import { verifyBulletproofPlus, verifyBulletproofsPlus } from './bulletproofs-plus/verify.ts';
import type { BulletproofPlus } from './bulletproofs-plus/common.ts';
import { decodeBulletproofPlus, decodeClsag, rangeProofV } from './proof-codec.ts';

export const clsagScheme = 'clsag';
export const bulletproofPlusScheme = 'bulletproof-plus';

/** One input's ring signature: ring keys and commitments in ring order, its pseudo-output, key image and CLSAG bytes. */
export interface ClsagCheckFields {
  readonly message: Uint8Array;
  readonly ringKeys: readonly Uint8Array[];
  readonly ringCommitments: readonly Uint8Array[];
  readonly pseudoOut: Uint8Array;
  readonly keyImage: Uint8Array;
  readonly signature: Uint8Array;
}

/** One aggregated range proof over the output commitments C (V = C·8⁻¹ is rebuilt here, docs/privacy.md). */
export interface BulletproofPlusCheckFields {
  readonly commitments: readonly Uint8Array[];
  readonly proof: Uint8Array;
}

function refusedAsFalse(run: () => boolean): boolean {
  try {
    return run();
  } catch (error) {
    if (error instanceof PrivacyEncodingError || error instanceof PrivacyProofError) return false;
    throw error;
  }
}

export function checkClsagFields(fields: ClsagCheckFields): boolean {
  return refusedAsFalse(() => {
    const n = fields.ringKeys.length;
    if (fields.ringCommitments.length !== n) return false;
    const ring = fields.ringKeys.map((publicKey, i) => ({ publicKey, commitment: fields.ringCommitments[i]! }));
    const statement = { message: fields.message, ring, pseudoOut: fields.pseudoOut, keyImage: fields.keyImage };
    return verifyClsag(statement, decodeClsag(fields.signature, n));
  });
}

export function checkBulletproofPlusFields(fields: BulletproofPlusCheckFields): boolean {
  return refusedAsFalse(() => verifyBulletproofPlus(decodeBulletproofPlus(fields.proof, fields.commitments.map(rangeProofV))));
}

/**
 * One answer per range-proof check, from one batch verification: proofs that do not even decode are false at once;
 * if the batch of the rest fails, each is checked alone so a bad proof blames only its own transaction.
 */
export function checkBulletproofPlusBatch(checks: readonly BulletproofPlusCheckFields[]): boolean[] {
  const results: boolean[] = new Array(checks.length).fill(false);
  const decoded: { at: number; proof: BulletproofPlus }[] = [];
  checks.forEach((fields, at) => {
    refusedAsFalse(() => {
      decoded.push({ at, proof: decodeBulletproofPlus(fields.proof, fields.commitments.map(rangeProofV)) });
      return true;
    });
  });
  if (decoded.length === 0) return results;
  const allHold = verifyBulletproofsPlus(decoded.map((d) => d.proof));
  for (const { at, proof } of decoded) results[at] = allHold || (decoded.length > 1 && verifyBulletproofPlus(proof));
  return results;
}
