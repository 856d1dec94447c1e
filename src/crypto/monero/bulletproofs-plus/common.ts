/**
 * What the Bulletproofs+ prover and verifier share (Monero bulletproofs_plus.cc; Chung et al., ePrint 2020/735):
 * the proof layout, the Fiat–Shamir transcript steps, and the scalar series of the verification equation.
 * Monero swaps the preprint's g and h: amounts sit on H and masks on G, as in every RingCT commitment.
 */
import { PrivacyEncodingError } from '../errors.ts';
import { hashToScalar, mod } from '../scalar.ts';
import { aggregatedOutputsMax, rangeBits } from './generators.ts';

/** An aggregated range proof, Monero's in-memory `BulletproofPlus`: all points are stored multiplied by 8⁻¹. */
export interface BulletproofPlus {
  /** V_j = C_j·8⁻¹ for each output commitment C_j (Monero restores them from outPk; Weft carries them). */
  readonly V: readonly Uint8Array[];
  readonly A: Uint8Array;
  readonly A1: Uint8Array;
  readonly B: Uint8Array;
  readonly r1: Uint8Array;
  readonly s1: Uint8Array;
  readonly d1: Uint8Array;
  readonly L: readonly Uint8Array[];
  readonly R: readonly Uint8Array[];
}

/** log2 of the padded output count M (the first power of two ≥ m). */
export function logPaddedOutputs(outputs: number): number {
  if (!Number.isInteger(outputs) || outputs < 1 || outputs > aggregatedOutputsMax) {
    throw new PrivacyEncodingError(`range proof outputs: got ${outputs}, expected 1..${aggregatedOutputsMax}`);
  }
  let logM = 0;
  while (1 << logM < outputs) logM++;
  return logM;
}

/** Inner-product rounds of a proof for `outputs` outputs: log2(64·M). */
export function roundsFor(outputs: number): number {
  return logPaddedOutputs(outputs) + Math.log2(rangeBits);
}

/** transcript ← Hs(transcript ‖ updates…); returns the new transcript as a scalar. */
export function transcriptUpdate(transcript: Uint8Array, ...updates: readonly Uint8Array[]): bigint {
  return hashToScalar(transcript, ...updates);
}

export function powers(x: bigint, count: number): bigint[] {
  const out: bigint[] = new Array(count);
  let acc = 1n;
  for (let i = 0; i < count; i++) {
    out[i] = acc;
    acc = mod(acc * x);
  }
  return out;
}

/** Σ_{i=1..n} x^i. */
export function sumOfPowers(x: bigint, n: number): bigint {
  let acc = 0n;
  let p = 1n;
  for (let i = 0; i < n; i++) {
    p = mod(p * x);
    acc += p;
  }
  return mod(acc);
}

/** Σ_{i=0..n−1} a_i·b_i·y^(i+1): the weighted inner product of BP+. */
export function weightedInnerProduct(a: readonly bigint[], b: readonly bigint[], y: bigint): bigint {
  let acc = 0n;
  let yPow = 1n;
  for (let i = 0; i < a.length; i++) {
    yPow = mod(yPow * y);
    acc = mod(acc + mod(a[i]! * b[i]!) * yPow);
  }
  return acc;
}

/** d[j·64 + i] = z^(2(j+1))·2^i: the windowed vector that packs M ranges into one argument. */
export function windowedVector(z: bigint, paddedOutputs: number): bigint[] {
  const zSquared = mod(z * z);
  const d: bigint[] = new Array(paddedOutputs * rangeBits);
  let zPow = zSquared;
  for (let j = 0; j < paddedOutputs; j++) {
    let v = zPow;
    for (let i = 0; i < rangeBits; i++) {
      d[j * rangeBits + i] = v;
      v = mod(v * 2n);
    }
    zPow = mod(zPow * zSquared);
  }
  return d;
}
