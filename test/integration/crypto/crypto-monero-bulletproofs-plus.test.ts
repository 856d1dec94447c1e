// Aggregated Bulletproofs+ range proofs (src/crypto/monero/bulletproofs-plus): no fixed vectors exist anywhere
// (note §2.2), so prove→verify for 1..16 outputs, batch verification, Monero's proof sizes, and the rejection cases
// of note §4.6: amount 2^64, flipped L/R, wrong V, torsioned V, and a proof reused with another commitment.
import { ED25519_TORSION_SUBGROUP } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { H, amountMax, commit } from '../../../src/crypto/monero/commitment.ts';
import type { BulletproofPlus } from '../../../src/crypto/monero/bulletproofs-plus/common.ts';
import { proveBulletproofPlus, type RangeProofOutput } from '../../../src/crypto/monero/bulletproofs-plus/prove.ts';
import { assertBulletproofsPlus, verifyBulletproofPlus, verifyBulletproofsPlus } from '../../../src/crypto/monero/bulletproofs-plus/verify.ts';
import { PrivacyEncodingError, PrivacyProofError } from '../../../src/crypto/monero/errors.ts';
import { Point, encodePoint, mulEight } from '../../../src/crypto/monero/point.ts';
import { encodeScalar, groupOrder, invEight, randomScalar } from '../../../src/crypto/monero/scalar.ts';
import { bulletproofPlusBytes, decodeBulletproofPlus, encodeBulletproofPlus, rangeProofV } from '../../../src/crypto/monero/proof-codec.ts';
import { createSeededRandom } from '../../helpers/monero-test-rng.ts';

const random = createSeededRandom(64);

function outputs(count: number, amount = (i: number) => BigInt(i) * 1_000_003n + 7n): RangeProofOutput[] {
  return Array.from({ length: count }, (_, i) => ({ amount: amount(i), mask: randomScalar(random) }));
}

/** V for a commitment: C·8⁻¹. */
const vOf = (mask: bigint, amount: bigint): Uint8Array => encodePoint(commit(mask, amount).multiplyUnsafe(invEight));
const flipBit = (b: Uint8Array): Uint8Array => Uint8Array.from(b, (x, i) => (i === 0 ? x ^ 1 : x));
/** Bytes on the wire in Monero's serialization (V is restored from the outputs, not sent). */
const wireBytes = (p: BulletproofPlus): number => 32 * (6 + p.L.length + p.R.length);

function reasonOf(proofs: BulletproofPlus[]): string {
  try {
    assertBulletproofsPlus(proofs);
    return 'verified';
  } catch (e) {
    if (e instanceof PrivacyProofError) return e.reason;
    if (e instanceof PrivacyEncodingError) return `encoding: ${e.message}`;
    throw e;
  }
}

// Proofs made once and shared by the tests below (proving is the slow part).
const proofs = new Map<number, { outs: RangeProofOutput[]; proof: BulletproofPlus }>();
function proofFor(m: number) {
  let entry = proofs.get(m);
  if (entry === undefined) {
    const outs = outputs(m);
    entry = { outs, proof: proveBulletproofPlus(outs, random) };
    proofs.set(m, entry);
  }
  return entry;
}

describe('Bulletproofs+ prove → verify', () => {
  it.each([1, 2, 3, 4, 5, 16])('%i output(s): verifies, V commits to each output, Monero-sized', (m) => {
    const { outs, proof } = proofFor(m);
    expect(verifyBulletproofPlus(proof)).toBe(true);
    expect(proof.V).toHaveLength(m);
    proof.V.forEach((v, j) => expect(mulEight(Point.fromBytes(v)).equals(commit(outs[j]!.mask, outs[j]!.amount))).toBe(true));
    const logM = Math.ceil(Math.log2(m));
    expect(proof.L).toHaveLength(6 + logM);
    expect(wireBytes(proof)).toBe(32 * (6 + 2 * (6 + logM)));
  });

  it('Monero sizes: 576 B for 1 output, 640 B for 2, 832 B for 16', () => {
    expect([1, 2, 16].map((m) => wireBytes(proofFor(m).proof))).toEqual([576, 640, 832]);
    expect([1, 2, 16].map((m) => encodeBulletproofPlus(proofFor(m).proof).length)).toEqual([576, 640, 832]);
    expect([3, 4, 5, 9].map(bulletproofPlusBytes)).toEqual([704, 704, 768, 832]);
  });

  it('round-trips through its byte layout, with V rebuilt from the output commitments', () => {
    const { outs, proof } = proofFor(2);
    const commitments = outs.map((o) => encodePoint(commit(o.mask, o.amount)));
    const decoded = decodeBulletproofPlus(encodeBulletproofPlus(proof), commitments.map(rangeProofV));
    expect(decoded).toEqual(proof);
    expect(verifyBulletproofPlus(decoded)).toBe(true);
    expect(() => decodeBulletproofPlus(encodeBulletproofPlus(proof).subarray(1), proof.V)).toThrow(/got 639 bytes, expected 640/);
    expect(() => decodeBulletproofPlus(encodeBulletproofPlus(proof), proof.V.slice(1))).toThrow(/expected 576/);
    const torsioned = encodePoint(commit(1n, 1n).add(Point.fromHex(ED25519_TORSION_SUBGROUP[1]!)));
    expect(() => rangeProofV(torsioned)).toThrow(/output commitment: has a torsion component/);
  });

  it('proves the edges of the range: 0 and 2^64 − 1', () => {
    const proof = proveBulletproofPlus([{ amount: 0n, mask: 5n }, { amount: amountMax, mask: 6n }], random);
    expect(verifyBulletproofPlus(proof)).toBe(true);
  });

  it('batch-verifies proofs of different sizes, and a single bad proof fails the batch', () => {
    const batch = [1, 2, 3, 4, 1].map((m, i) => (i === 4 ? proveBulletproofPlus(outputs(1), random) : proofFor(m).proof));
    expect(verifyBulletproofsPlus(batch)).toBe(true);
    expect(verifyBulletproofsPlus([])).toBe(true);
    const bad = { ...batch[2]!, d1: encodeScalar(BigInt(`0x${Buffer.from(batch[2]!.d1).reverse().toString('hex')}`) + 1n) };
    expect(reasonOf([batch[0]!, batch[1]!, bad, batch[3]!])).toBe('range_proof_invalid');
    expect(verifyBulletproofsPlus([...batch, bad])).toBe(false);
  });
});

describe('Bulletproofs+ rejection cases (note §4.6)', () => {
  it('the prover refuses an amount of 2^64, and no proof stands for a commitment to 2^64', () => {
    expect(() => proveBulletproofPlus([{ amount: amountMax + 1n, mask: 1n }], random)).toThrow(/2\^64/);
    expect(() => proveBulletproofPlus([{ amount: -1n, mask: 1n }], random)).toThrow(/2\^64/);
    // 2^64 ≡ 0 in the bits the prover decomposes: move a proof of 0 onto a commitment to 2^64 with the same mask.
    const proof = proveBulletproofPlus([{ amount: 0n, mask: 9n }], random);
    expect(verifyBulletproofPlus(proof)).toBe(true);
    const twoTo64Commitment = encodePoint(commit(9n, 0n).add(H.multiplyUnsafe(1n << 64n)).multiplyUnsafe(invEight));
    expect(reasonOf([{ ...proof, V: [twoTo64Commitment] }])).toBe('range_proof_invalid');
  });

  it('a flipped or swapped L/R is rejected', () => {
    const { proof } = proofFor(2);
    const rounds = proof.L.length;
    for (let j = 0; j < rounds; j++) {
      const L = proof.L.map((l, k) => (k === j ? flipBit(l) : l));
      const R = proof.R.map((r, k) => (k === j ? flipBit(r) : r));
      expect(verifyBulletproofPlus({ ...proof, L }), `L[${j}]`).toBe(false);
      expect(verifyBulletproofPlus({ ...proof, R }), `R[${j}]`).toBe(false);
    }
    expect(reasonOf([{ ...proof, L: [proof.R[0]!, ...proof.L.slice(1)], R: [proof.L[0]!, ...proof.R.slice(1)] }])).toBe('range_proof_invalid');
    expect(reasonOf([{ ...proof, L: proof.L.slice(1), R: proof.R.slice(1) }])).toMatch(/encoding: .*L\/R/);
  });

  it('a wrong V (another amount) and a proof reused with another commitment are rejected', () => {
    const { outs, proof } = proofFor(2);
    expect(reasonOf([{ ...proof, V: [vOf(outs[0]!.mask, outs[0]!.amount + 1n), proof.V[1]!] }])).toBe('range_proof_invalid');
    // Same amount, another mask: the proof is bound to its own commitments.
    expect(reasonOf([{ ...proof, V: [proof.V[0]!, vOf(outs[1]!.mask + 1n, outs[1]!.amount)] }])).toBe('range_proof_invalid');
    expect(reasonOf([{ ...proof, V: [proof.V[1]!, proof.V[0]!] }])).toBe('range_proof_invalid');
    expect(reasonOf([{ ...proof, V: [proof.V[0]!] }])).toMatch(/encoding: .*L\/R/);
  });

  it('a torsioned V is refused before any verification (Monero would accept it through ×8)', () => {
    const { proof } = proofFor(1);
    const torsioned = encodePoint(Point.fromBytes(proof.V[0]!).add(Point.fromHex(ED25519_TORSION_SUBGROUP[4]!)));
    expect(reasonOf([{ ...proof, V: [torsioned] }])).toMatch(/encoding: range proof V\[0\]: has a torsion component/);
    expect(reasonOf([{ ...proof, V: [encodePoint(Point.ZERO)] }])).toMatch(/identity/);
  });

  it('non-canonical scalars, wrong output counts and tampered A, A1, B, r1, s1, d1 are rejected', () => {
    const { proof } = proofFor(1);
    const r1 = BigInt(`0x${Buffer.from(proof.r1).reverse().toString('hex')}`);
    const nonCanonical = Uint8Array.from(Buffer.from((r1 + groupOrder).toString(16).padStart(64, '0'), 'hex').reverse());
    expect(reasonOf([{ ...proof, r1: nonCanonical }])).toMatch(/encoding: range proof r1: not canonical/);
    for (const field of ['A', 'A1', 'B', 'r1', 's1', 'd1'] as const) {
      expect(verifyBulletproofPlus({ ...proof, [field]: flipBit(proof[field]) }), field).toBe(false);
    }
    expect(() => proveBulletproofPlus([{ amount: 5n, mask: groupOrder }], random)).toThrow(/mask: got 0/);
    expect(() => proveBulletproofPlus([], random)).toThrow(/got 0, expected 1..16/);
    expect(() => proveBulletproofPlus(outputs(17), random)).toThrow(/got 17, expected 1..16/);
  });
});
