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

function proveOnce(outputs: readonly RangeProofOutput[], M: number, random: RandomBytes): BulletproofPlus | undefined {
  const MN = M * rangeBits;
  const { Gi, Hi } = generators(MN);
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

  let transcript = encodeScalar(transcriptUpdate(initialTranscript, encodeScalar(hashToScalar(...V))));
  const y = transcriptUpdate(transcript, A);
  if (y === 0n) return undefined;
  const z = hashToScalar(encodeScalar(y));
  if (z === 0n) return undefined;
  transcript = encodeScalar(z);
  const zSquared = mod(z * z);
  const d = windowedVector(z, M);
  const yPow = powers(y, MN + 2);

  let a = bits.map((b) => mod((b ? 1n : 0n) - z));
  let b = bits.map((bit, i) => mod((bit ? 0n : -1n) + z + d[i]! * yPow[MN - i]!));
  let alpha1 = alpha;
  let zPow = 1n;
  for (const o of outputs) {
    zPow = mod(zPow * zSquared);
    alpha1 = mod(alpha1 + yPow[MN + 1]! * zPow * o.mask);
  }

  const yInv = invertScalar(y);
  const yInvPow = powers(yInv, MN);
  // The folded generators are kept as stored points times one scale per vector (G' = gScale·Gs, H' = hScale·Hs):
  // every low half of a fold is multiplied by the same challenge, so a fold costs one multiplication per point, on
  // the variable-time arithmetic (challenges are public) with the challenge's digits computed once per fold.
  let Gs: Ext[] = Gi.slice(0, MN).map(fromPoint);
  let Hs: Ext[] = Hi.slice(0, MN).map(fromPoint);
  const [Gx, Hx] = [fromPoint(G), fromPoint(H)];
  let gScale = 1n;
  let hScale = 1n;
  const L: Uint8Array[] = [];
  const R: Uint8Array[] = [];
  for (let n = MN / 2; n >= 1; n /= 2) {
    const aLo = a.slice(0, n);
    const aHi = a.slice(n);
    const bLo = b.slice(0, n);
    const bHi = b.slice(n);
    const cL = weightedInnerProduct(aLo, bHi, y);
    const cR = weightedInnerProduct(aHi.map((v) => mod(v * yPow[n]!)), bLo, y);
    const dL = randomScalar(random);
    const dR = randomScalar(random);
    // Monero compute_LR: L = Σ a_lo·y⁻ⁿ·G'_hi + b_hi·H'_lo + cL·H + dL·G, R = Σ a_hi·yⁿ·G'_lo + b_lo·H'_hi + cR·H + dR·G,
    // every scalar times 8⁻¹.
    const gL = mod(yInvPow[n]! * invEight * gScale);
    const gR = mod(yPow[n]! * invEight * gScale);
    const h8 = mod(invEight * hScale);
    const [Lr, Rr] = encodeAll([
      msm([...Gs.slice(n, 2 * n), ...Hs.slice(0, n), Hx, Gx], [
        ...aLo.map((v) => mod(v * gL)),
        ...bHi.map((v) => mod(v * h8)),
        mod(cL * invEight),
        mod(dL * invEight),
      ]),
      msm([...Gs.slice(0, n), ...Hs.slice(n, 2 * n), Hx, Gx], [
        ...aHi.map((v) => mod(v * gR)),
        ...bLo.map((v) => mod(v * h8)),
        mod(cR * invEight),
        mod(dR * invEight),
      ]),
    ]) as [Uint8Array, Uint8Array];
    L.push(Lr);
    R.push(Rr);
    const x = transcriptUpdate(transcript, Lr, Rr);
    if (x === 0n) return undefined;
    transcript = encodeScalar(x);
    const xInv = invertScalar(x);
    // G'_new[i] = x⁻¹·G'[i] + y⁻ⁿ·x·G'[n+i];  H'_new[i] = x·H'[i] + x⁻¹·H'[n+i].
    const gFold = mod(yInvPow[n]! * x * x);
    const hFold = mod(xInv * xInv);
    Gs = fold(Gs, n, gFold);
    Hs = fold(Hs, n, hFold);
    gScale = mod(gScale * xInv);
    hScale = mod(hScale * x);
    const aScale = mod(xInv * yPow[n]!);
    a = aLo.map((v, i) => mod(v * x + aHi[i]! * aScale));
    b = bLo.map((v, i) => mod(v * xInv + bHi[i]! * x));
    alpha1 = mod(alpha1 + dL * x * x + dR * xInv * xInv);
  }

  const r = randomScalar(random);
  const s = randomScalar(random);
  const dFinal = randomScalar(random);
  const eta = randomScalar(random);
  const a0 = a[0]!;
  const b0 = b[0]!;
  const [A1] = encodeAll([
    msm([Gs[0]!, Hs[0]!, Gx, Hx], [
      mod(r * invEight * gScale),
      mod(s * invEight * hScale),
      mod(dFinal * invEight),
      mod((r * y * b0 + s * y * a0) * invEight),
    ]),
  ]) as [Uint8Array];
  const B = encodePoint(mulBase(mod(eta * invEight)).add(mulSecret(H, mod(r * y * s * invEight))));
  const e = transcriptUpdate(transcript, A1, B);
  if (e === 0n) return undefined;
  return {
    V,
    A,
    A1,
    B,
    r1: encodeScalar(r + a0 * e),
    s1: encodeScalar(s + b0 * e),
    d1: encodeScalar(eta + dFinal * e + alpha1 * e * e),
    L,
    R,
  };
}
