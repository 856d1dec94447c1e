/**
 * The Bulletproofs+ verifier, Monero's `bulletproof_plus_VERIFY` (bulletproofs_plus.cc): every proof of a batch
 * becomes one weighted multi-scalar equation, the generator terms Gi, Hi, G and H are shared across proofs, and the
 * whole batch is one MSM that must be the identity: the proofs' points by Straus or Pippenger, the generators by
 * fixed-base tables kept for the process (vartime.ts). Stricter than Monero (docs/privacy.md "Strict
 * decoding"): each V must be torsion-free and not the identity, since Weft reads the output commitment as 8·V.
 *
 * Weights: Monero draws them at random; Weft derives them from a hash of the whole batch (every field of every
 * proof), so verification is deterministic (docs/style.md habit 7) and a prover cannot know a weight before fixing
 * all its proofs. An invalid proof then passes a batch with probability about 1/l per attempt.
 */
import { concatBytes } from '../../../util/bytes.ts';
import { PrivacyEncodingError, PrivacyProofError } from '../errors.ts';
import { cachedSubgroupExt } from '../decoded-points.ts';
import { decodePointExt } from '../point.ts';
import { add, cached, fixedMsm, isIdentity, msm, mulEightExt, type Ext } from '../vartime.ts';
import { decodeScalar, encodeScalar, encodeVarint, fastHash, hashToScalar, invertScalars, mod } from '../scalar.ts';
import { logPaddedOutputs, roundsFor, sumOfPowers, transcriptUpdate, windowedVector, type BulletproofPlus } from './common.ts';
import { generatorTables, initialTranscript, rangeBits } from './generators.ts';

/** Proofs one batch call accepts: a bound on the work one call can be made to do. */
const bulletproofBatchMax = 256;
const batchWeightDomain = new TextEncoder().encode('weft/bulletproof_plus/batch_weight');

interface Decoded {
  readonly proof: BulletproofPlus;
  readonly M: number;
  readonly V8: Ext[];
  readonly A8: Ext;
  readonly A18: Ext;
  readonly B8: Ext;
  readonly L8: Ext[];
  readonly R8: Ext[];
  readonly r1: bigint;
  readonly s1: bigint;
  readonly d1: bigint;
  readonly y: bigint;
  readonly z: bigint;
  readonly e: bigint;
  readonly x: bigint[];
}

/** Strict decoding and transcript replay of one proof (throws PrivacyEncodingError / PrivacyProofError). */
function decodeProof(proof: BulletproofPlus, index: number): Decoded {
  const logM = logPaddedOutputs(proof.V.length);
  const rounds = roundsFor(proof.V.length);
  if (proof.L.length !== rounds || proof.R.length !== rounds) {
    throw new PrivacyEncodingError(`range proof ${index}: got ${proof.L.length}/${proof.R.length} L/R, expected ${rounds}`);
  }
  const r1 = decodeScalar(proof.r1, 'range proof r1');
  const s1 = decodeScalar(proof.s1, 'range proof s1');
  const d1 = decodeScalar(proof.d1, 'range proof d1');
  // V is the commitment ×8⁻¹: a torsioned V would let two encodings stand for one commitment.
  const V8 = proof.V.map((v, j) => mulEightExt(cachedSubgroupExt(v, `range proof V[${j}]`)));
  const point8 = (b: Uint8Array, what: string): Ext => mulEightExt(decodePointExt(b, `range proof ${what}`));
  let transcript = encodeScalar(transcriptUpdate(initialTranscript(), encodeScalar(hashToScalar(...proof.V))));
  const y = transcriptUpdate(transcript, proof.A);
  if (y === 0n) throw new PrivacyProofError('zero_challenge', 'range proof: y is zero');
  const z = hashToScalar(encodeScalar(y));
  if (z === 0n) throw new PrivacyProofError('zero_challenge', 'range proof: z is zero');
  transcript = encodeScalar(z);
  const x: bigint[] = [];
  for (let j = 0; j < rounds; j++) {
    const xj = transcriptUpdate(transcript, proof.L[j]!, proof.R[j]!);
    if (xj === 0n) throw new PrivacyProofError('zero_challenge', `range proof: round ${j} challenge is zero`);
    x.push(xj);
    transcript = encodeScalar(xj);
  }
  const e = transcriptUpdate(transcript, proof.A1, proof.B);
  if (e === 0n) throw new PrivacyProofError('zero_challenge', 'range proof: e is zero');
  return {
    proof,
    M: 1 << logM,
    V8,
    A8: point8(proof.A, 'A'),
    A18: point8(proof.A1, 'A1'),
    B8: point8(proof.B, 'B'),
    L8: proof.L.map((l, j) => point8(l, `L[${j}]`)),
    R8: proof.R.map((r, j) => point8(r, `R[${j}]`)),
    r1,
    s1,
    d1,
    y,
    z,
    e,
    x,
  };
}

function batchWeights(proofs: readonly BulletproofPlus[]): bigint[] {
  const fields = proofs.flatMap((p) => [encodeVarint(p.V.length), ...p.V, p.A, p.A1, p.B, p.r1, p.s1, p.d1, ...p.L, ...p.R]);
  const digest = fastHash(concatBytes(...fields));
  return proofs.map((_, i) => {
    const w = hashToScalar(batchWeightDomain, digest, encodeVarint(i));
    return w === 0n ? 1n : w;
  });
}

/** Verifies a batch; throws PrivacyEncodingError for malformed proofs, PrivacyProofError when the batch fails. */
export function assertBulletproofsPlus(proofs: readonly BulletproofPlus[]): void {
  if (proofs.length === 0) return;
  if (proofs.length > bulletproofBatchMax) throw new PrivacyEncodingError(`range proofs: got ${proofs.length}, at most ${bulletproofBatchMax}`);
  const decoded = proofs.map(decodeProof);
  const weights = batchWeights(proofs);
  const maxMN = Math.max(...decoded.map((d) => d.M)) * rangeBits;
  const twoPow64MinusOne = (1n << 64n) - 1n;
  const gi: bigint[] = new Array(maxMN).fill(0n);
  const hi: bigint[] = new Array(maxMN).fill(0n);
  let gScalar = 0n;
  let hScalar = 0n;
  const points: Ext[] = [];
  const scalars: bigint[] = [];
  // One inversion for all the challenges and y's of the batch.
  const inverses = invertScalars(decoded.flatMap((d) => [...d.x, d.y]));
  let offset = 0;
  decoded.forEach((d, p) => {
    const w = weights[p]!;
    const MN = d.M * rangeBits;
    const rounds = d.x.length;
    const xInv = inverses.slice(offset, offset + rounds);
    const yInv = inverses[offset + rounds]!;
    offset += rounds + 1;
    let yMN = d.y;
    for (let t = MN; t > 1; t /= 2) yMN = mod(yMN * yMN);
    const yMN1 = mod(yMN * d.y);
    const eSquared = mod(d.e * d.e);
    const zSquared = mod(d.z * d.z);

    // V_j: −e²·z^(2(j+1))·y^(MN+1)·w.
    let vScalar = mod(-eSquared * yMN1 * w);
    d.V8.forEach((V) => {
      vScalar = mod(vScalar * zSquared);
      points.push(V);
      scalars.push(vScalar);
    });
    // B: −w; A1: −w·e; A: −w·e².
    const minusWeightE2 = mod(-w * eSquared);
    points.push(d.B8, d.A18, d.A8);
    scalars.push(mod(-w), mod(-w * d.e), minusWeightE2);
    gScalar = mod(gScalar + w * d.d1);
    // H: w·(r1·y·s1 + e²·(y^(MN+1)·z·Σd + (z² − z)·Σ_{i=1..MN} y^i)), with Σd = (2^64 − 1)·Σ_{j=1..M} z^(2j).
    const sumD = mod(twoPow64MinusOne * sumOfPowers(zSquared, d.M));
    const sumY = sumOfPowers(d.y, MN);
    hScalar = mod(hScalar + w * (d.r1 * d.y * d.s1 + eSquared * (yMN1 * d.z * sumD + (zSquared - d.z) * sumY)));

    // Products of the round challenges for each generator index (bit j of i, from the top, picks x_j or x_j⁻¹).
    const cache: bigint[] = new Array(MN).fill(0n);
    cache[0] = xInv[0]!;
    cache[1] = d.x[0]!;
    for (let j = 1; j < rounds; j++) {
      for (let s = (1 << (j + 1)) - 1; s > 0; s -= 2) {
        cache[s] = mod(cache[s >> 1]! * d.x[j]!);
        cache[s - 1] = mod(cache[s >> 1]! * xInv[j]!);
      }
    }
    const dVec = windowedVector(d.z, d.M);
    let eR1WY = mod(d.e * d.r1 * w);
    const eS1W = mod(d.e * d.s1 * w);
    const e2ZW = mod(eSquared * d.z * w);
    let minusE2WY = mod(-eSquared * w * yMN);
    for (let i = 0; i < MN; i++) {
      gi[i] = mod(gi[i]! + eR1WY * cache[i]! + e2ZW);
      hi[i] = mod(hi[i]! + eS1W * cache[~i & (MN - 1)]! - e2ZW + minusE2WY * dVec[i]!);
      eR1WY = mod(eR1WY * yInv);
      minusE2WY = mod(minusE2WY * yInv);
    }
    // L_j: −w·e²·x_j²; R_j: −w·e²·x_j⁻².
    for (let j = 0; j < rounds; j++) {
      points.push(d.L8[j]!, d.R8[j]!);
      scalars.push(mod(minusWeightE2 * d.x[j]! * d.x[j]!), mod(minusWeightE2 * xInv[j]! * xInv[j]!));
    }
  });
  // The proofs' own points in one MSM; G, H, Gi and Hi through their fixed-base tables.
  const fixed = fixedMsm(generatorTables(maxMN), [gScalar, hScalar, ...gi, ...hi]);
  if (!isIdentity(add(msm(points, scalars), cached(fixed)))) {
    throw new PrivacyProofError('range_proof_invalid', `range proof batch of ${proofs.length} does not verify`);
  }
}

/** True when every proof of the batch verifies; false for any malformed or invalid proof. */
export function verifyBulletproofsPlus(proofs: readonly BulletproofPlus[]): boolean {
  try {
    assertBulletproofsPlus(proofs);
    return true;
  } catch (e) {
    if (e instanceof PrivacyEncodingError || e instanceof PrivacyProofError) return false;
    throw e;
  }
}

export function verifyBulletproofPlus(proof: BulletproofPlus): boolean {
  return verifyBulletproofsPlus([proof]);
}
