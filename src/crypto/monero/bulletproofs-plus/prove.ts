/**
 * The Bulletproofs+ prover, step for step Monero's `bulletproof_plus_PROVE` (bulletproofs_plus.cc), so the
 * transcript, generators and ×8⁻¹ offsets match Monero's. One change of method, not of result: Monero folds each
 * generator pair with a double scalar multiplication; here each folded vector carries one common scale, so a fold
 * is a single multiplication per point. V, A and B multiply secrets in constant time; the inner-product rounds
 * (L, R, A1) are variable-time MSMs over amount-derived scalars, as in Monero (docs/privacy.md "Decisions", 4).
 */
import { assert } from '../../../errors.ts';
import { assertAmount, H } from '../commitment.ts';
import { PrivacyEncodingError } from '../errors.ts';
import { G, Point, encodePoint, mulBase, mulSecret } from '../point.ts';
import { add, cached, encodeAll, fromPoint, msm, oddMultiples, straus, wnafDigits, type Ext } from '../vartime.ts';
import { encodeScalar, hashToScalar, invEight, invertScalar, mod, randomScalar, type RandomBytes } from '../scalar.ts';
import { logPaddedOutputs, powers, transcriptUpdate, weightedInnerProduct, windowedVector, type BulletproofPlus } from './common.ts';
import { generators, initialTranscript, rangeBits } from './generators.ts';

/** A prover retries when a challenge hashes to zero; this bound only stops a broken random source looping. */
const proveAttemptsMax = 16;

export interface RangeProofOutput {
  /** The hidden amount, 0 ≤ amount < 2^64. */
  readonly amount: bigint;
  /** The commitment mask: the output commitment is mask·G + amount·H. */
  readonly mask: bigint;
}

/** Proves that every amount is below 2^64, for 1..16 outputs in one proof. */
export function proveBulletproofPlus(outputs: readonly RangeProofOutput[], random: RandomBytes): BulletproofPlus {
  const M = 1 << logPaddedOutputs(outputs.length);
  for (const o of outputs) {
    assertAmount(o.amount);
    // A zero mask would publish amount·H, from which the amount is found by trying values.
    if (mod(o.mask) === 0n) throw new PrivacyEncodingError('range proof mask: got 0, expected a non-zero scalar');
  }
  for (let attempt = 0; attempt < proveAttemptsMax; attempt++) {
    const proof = proveOnce(outputs, M, random);
    if (proof !== undefined) return proof;
  }
  // Sixteen zero challenges in a row has probability ~2^-4000: only a broken random source gets here.
  assert(false, 'range proof challenges kept hashing to zero');
}

/** points[i] + k·points[n + i] for i < n: one public scalar for all, so its wNAF digits are computed once. */
function fold(points: readonly Ext[], n: number, k: bigint): Ext[] {
  const digits = wnafDigits(k, 5);
  return points.slice(0, n).map((P, i) => add(P, cached(straus([{ table: oddMultiples(points[n + i]!, 5), digits }]))));
}

/** The prover's state through the inner-product rounds (Monero's a', b', α₁ and the folded generators). */
interface InnerProductState {
  /** The folded generators as stored points times one scale per vector: G' = gScale·Gs, H' = hScale·Hs. */
  Gs: Ext[];
  Hs: Ext[];
  gScale: bigint;
  hScale: bigint;
  a: bigint[];
  b: bigint[];
  alpha1: bigint;
  /** The running transcript (the last challenge, encoded). */
  transcript: Uint8Array;
}

/** What every round reads: the challenge y's powers and the fixed generators G and H. */
interface RoundConstants {
  readonly y: bigint;
  readonly yPow: readonly bigint[];
  readonly yInvPow: readonly bigint[];
  readonly Gx: Ext;
  readonly Hx: Ext;
}

/** V (the commitments ×8⁻¹), the amounts' bits over M·64 places, α and A (Monero's aL/aR commitment). */
function commitToBits(outputs: readonly RangeProofOutput[], MN: number, Gi: readonly Point[], Hi: readonly Point[], random: RandomBytes) {
  // V = C·8⁻¹, so that the verifier's ×8 lands back on C and clears any torsion.
  const V = outputs.map((o) => {
    const masked = mulBase(mod(o.mask * invEight));
    return encodePoint(o.amount === 0n ? masked : masked.add(mulSecret(H, mod(o.amount * invEight))));
  });
  const bits: boolean[] = new Array(MN);
  for (let i = 0; i < MN; i++) {
    const amount = outputs[Math.floor(i / rangeBits)]?.amount ?? 0n;
    bits[i] = ((amount >> BigInt(i % rangeBits)) & 1n) === 1n;
  }
  // aL ∈ {0,1}, aR = aL − 1: pre_A = 8⁻¹·(Σ_{bit set} Gi − Σ_{bit clear} Hi).
  let bitSum = Point.ZERO;
  for (let i = 0; i < MN; i++) bitSum = bits[i] ? bitSum.add(Gi[i]!) : bitSum.subtract(Hi[i]!);
  const alpha = randomScalar(random);
  const A = encodePoint(mulSecret(bitSum, invEight).add(mulBase(mod(alpha * invEight))));
  return { V, bits, alpha, A };
}

/** One inner-product round at half-length n: L and R, the challenge x, and everything folded by it. */
function innerProductRound(st: InnerProductState, n: number, k: RoundConstants, random: RandomBytes): { L: Uint8Array; R: Uint8Array } | undefined {
  const { y, yPow, yInvPow } = k;
  const aLo = st.a.slice(0, n);
  const aHi = st.a.slice(n);
  const bLo = st.b.slice(0, n);
  const bHi = st.b.slice(n);
  const cL = weightedInnerProduct(aLo, bHi, y);
  const cR = weightedInnerProduct(aHi.map((v) => mod(v * yPow[n]!)), bLo, y);
  const dL = randomScalar(random);
  const dR = randomScalar(random);
  // Monero compute_LR: L = Σ a_lo·y⁻ⁿ·G'_hi + b_hi·H'_lo + cL·H + dL·G, R = Σ a_hi·yⁿ·G'_lo + b_lo·H'_hi + cR·H + dR·G,
  // every scalar times 8⁻¹.
  const gL = mod(yInvPow[n]! * invEight * st.gScale);
  const gR = mod(yPow[n]! * invEight * st.gScale);
  const h8 = mod(invEight * st.hScale);
  const [L, R] = encodeAll([
    msm([...st.Gs.slice(n, 2 * n), ...st.Hs.slice(0, n), k.Hx, k.Gx], [
      ...aLo.map((v) => mod(v * gL)),
      ...bHi.map((v) => mod(v * h8)),
      mod(cL * invEight),
      mod(dL * invEight),
    ]),
    msm([...st.Gs.slice(0, n), ...st.Hs.slice(n, 2 * n), k.Hx, k.Gx], [
      ...aHi.map((v) => mod(v * gR)),
      ...bLo.map((v) => mod(v * h8)),
      mod(cR * invEight),
      mod(dR * invEight),
    ]),
  ]) as [Uint8Array, Uint8Array];
  const x = transcriptUpdate(st.transcript, L, R);
  if (x === 0n) return undefined;
  st.transcript = encodeScalar(x);
  const xInv = invertScalar(x);
  // G'_new[i] = x⁻¹·G'[i] + y⁻ⁿ·x·G'[n+i];  H'_new[i] = x·H'[i] + x⁻¹·H'[n+i].
  const gFold = mod(yInvPow[n]! * x * x);
  const hFold = mod(xInv * xInv);
  st.Gs = fold(st.Gs, n, gFold);
  st.Hs = fold(st.Hs, n, hFold);
  st.gScale = mod(st.gScale * xInv);
  st.hScale = mod(st.hScale * x);
  const aScale = mod(xInv * yPow[n]!);
  st.a = aLo.map((v, i) => mod(v * x + aHi[i]! * aScale));
  st.b = bLo.map((v, i) => mod(v * xInv + bHi[i]! * x));
  st.alpha1 = mod(st.alpha1 + dL * x * x + dR * xInv * xInv);
  return { L, R };
}

/** The last round over the length-1 vectors: A1, B and the response scalars r1, s1, d1. */
function finalRound(st: InnerProductState, k: RoundConstants, random: RandomBytes) {
  const { y } = k;
  const r = randomScalar(random);
  const s = randomScalar(random);
  const dFinal = randomScalar(random);
  const eta = randomScalar(random);
  const a0 = st.a[0]!;
  const b0 = st.b[0]!;
  const [A1] = encodeAll([
    msm([st.Gs[0]!, st.Hs[0]!, k.Gx, k.Hx], [
      mod(r * invEight * st.gScale),
      mod(s * invEight * st.hScale),
      mod(dFinal * invEight),
      mod((r * y * b0 + s * y * a0) * invEight),
    ]),
  ]) as [Uint8Array];
  const B = encodePoint(mulBase(mod(eta * invEight)).add(mulSecret(H, mod(r * y * s * invEight))));
  const e = transcriptUpdate(st.transcript, A1, B);
  if (e === 0n) return undefined;
  return {
    A1,
    B,
    r1: encodeScalar(r + a0 * e),
    s1: encodeScalar(s + b0 * e),
    d1: encodeScalar(eta + dFinal * e + st.alpha1 * e * e),
  };
}

function proveOnce(outputs: readonly RangeProofOutput[], M: number, random: RandomBytes): BulletproofPlus | undefined {
  const MN = M * rangeBits;
  const { Gi, Hi } = generators(MN);
  const { V, bits, alpha, A } = commitToBits(outputs, MN, Gi, Hi, random);

  const transcript = encodeScalar(transcriptUpdate(initialTranscript(), encodeScalar(hashToScalar(...V))));
  const y = transcriptUpdate(transcript, A);
  if (y === 0n) return undefined;
  const z = hashToScalar(encodeScalar(y));
  if (z === 0n) return undefined;
  const zSquared = mod(z * z);
  const d = windowedVector(z, M);
  const yPow = powers(y, MN + 2);

  let alpha1 = alpha;
  let zPow = 1n;
  for (const o of outputs) {
    zPow = mod(zPow * zSquared);
    alpha1 = mod(alpha1 + yPow[MN + 1]! * zPow * o.mask);
  }
  const k: RoundConstants = { y, yPow, yInvPow: powers(invertScalar(y), MN), Gx: fromPoint(G), Hx: fromPoint(H) };
  // Every low half of a fold is multiplied by the same challenge, so a fold costs one multiplication per point, on
  // the variable-time arithmetic (challenges are public) with the challenge's digits computed once per fold.
  const st: InnerProductState = {
    Gs: Gi.slice(0, MN).map(fromPoint),
    Hs: Hi.slice(0, MN).map(fromPoint),
    gScale: 1n,
    hScale: 1n,
    a: bits.map((b) => mod((b ? 1n : 0n) - z)),
    b: bits.map((bit, i) => mod((bit ? 0n : -1n) + z + d[i]! * yPow[MN - i]!)),
    alpha1,
    transcript: encodeScalar(z),
  };
  const L: Uint8Array[] = [];
  const R: Uint8Array[] = [];
  for (let n = MN / 2; n >= 1; n /= 2) {
    const round = innerProductRound(st, n, k, random);
    if (round === undefined) return undefined;
    L.push(round.L);
    R.push(round.R);
  }
  const last = finalRound(st, k, random);
  if (last === undefined) return undefined;
  return { V, A, A1: last.A1, B: last.B, r1: last.r1, s1: last.s1, d1: last.d1, L, R };
}
