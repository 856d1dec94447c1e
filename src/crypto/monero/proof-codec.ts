/**
 * Byte layouts of CLSAG signatures and Bulletproofs+ proofs, Monero's field order without its length prefixes: every
 * length is implied by what the transaction already says (the ring size; the number of outputs), so each encoding
 * has exactly one valid length and decoding refuses any other.
 * - CLSAG: s_0 … s_{n−1} ‖ c1 ‖ D·8⁻¹ — 32·(n + 2) bytes, 576 at ring 16.
 * - BP+: A ‖ A1 ‖ B ‖ r1 ‖ s1 ‖ d1 ‖ L_0 … ‖ R_0 … — 32·(6 + 2·log2(64·M)) bytes: 576 for 1 output, 640 for 2, 832
 *   for 9–16. V is not encoded: the verifier rebuilds it from the output commitments as C·8⁻¹ (docs/privacy.md).
 * Decoding only cuts bytes; the verifiers apply the strict scalar and point rules.
 */
import { PrivacyEncodingError } from './errors.ts';
import type { ClsagSignature } from './clsag.ts';
import type { BulletproofPlus } from './bulletproofs-plus/common.ts';
import { roundsFor } from './bulletproofs-plus/common.ts';
import { concatBytes } from '../../util/bytes.ts';
import { cachedSubgroupPoint, noteSubgroupPoint } from './decoded-points.ts';
import { encodePoint, mulPublic } from './point.ts';
import { invEight } from './scalar.ts';

const word = 32;

function words(bytes: Uint8Array, count: number, what: string): Uint8Array[] {
  if (bytes.length !== count * word) throw new PrivacyEncodingError(`${what}: got ${bytes.length} bytes, expected ${count * word}`);
  return Array.from({ length: count }, (_, i) => bytes.slice(i * word, (i + 1) * word));
}

export function clsagBytes(ringSize: number): number {
  return word * (ringSize + 2);
}

export function encodeClsag(signature: ClsagSignature): Uint8Array {
  return concatBytes(...signature.s, signature.c1, signature.D);
}

export function decodeClsag(bytes: Uint8Array, ringSize: number): ClsagSignature {
  const w = words(bytes, ringSize + 2, `CLSAG for a ring of ${ringSize}`);
  return { s: w.slice(0, ringSize), c1: w[ringSize]!, D: w[ringSize + 1]! };
}

export function bulletproofPlusBytes(outputs: number): number {
  return word * (6 + 2 * roundsFor(outputs));
}

export function encodeBulletproofPlus(proof: BulletproofPlus): Uint8Array {
  return concatBytes(proof.A, proof.A1, proof.B, proof.r1, proof.s1, proof.d1, ...proof.L, ...proof.R);
}

/** The proof for `V.length` outputs, with V (C·8⁻¹ of each output commitment) supplied by the caller. */
export function decodeBulletproofPlus(bytes: Uint8Array, V: readonly Uint8Array[]): BulletproofPlus {
  const rounds = roundsFor(V.length);
  const w = words(bytes, 6 + 2 * rounds, `range proof for ${V.length} outputs`);
  return { V, A: w[0]!, A1: w[1]!, B: w[2]!, r1: w[3]!, s1: w[4]!, d1: w[5]!, L: w.slice(6, 6 + rounds), R: w.slice(6 + rounds) };
}

/** V = C·8⁻¹ for an output commitment C, which must be torsion-free (the range proof then covers exactly C). */
export function rangeProofV(commitment: Uint8Array): Uint8Array {
  const V = mulPublic(cachedSubgroupPoint(commitment, 'output commitment'), invEight);
  const bytes = encodePoint(V);
  // V is a non-zero multiple of a torsion-free C: the verifier need not decode and check it again.
  noteSubgroupPoint(bytes, V);
  return bytes;
}
