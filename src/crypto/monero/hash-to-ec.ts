/**
 * Monero's hash-to-point: `ge_fromfe_frombytes_vartime` (crypto-ops.c), a CryptoNote-specific Elligator-style map
 * that is NOT RFC 9380 (noble's `ed25519_hasher` gives different points), and `hash_to_ec` = 8·map(keccak(x)),
 * called `biased_hash_to_ec` on Monero master. Key images, ring signatures, CLSAG and the Bulletproofs+ generators
 * all go through it. Its input is always public (a one-time key, a generator seed), so it runs on the
 * variable-time limb field of field25519.ts: one (p − 5)/8 power by ref10's addition chain per point.
 */
import { assert } from '../../errors.ts';
import { add, carry, equals, fe, feFromBigint, feFromBytes, isOdd, isZero, mul, powP58, sqr, sqrtMinusOne, sub, type Fe } from './field25519.ts';
import { type Point as PointT } from './point.ts';
import { fastHash } from './scalar.ts';
import { mulEightExt, toPoint, type Ext } from './vartime.ts';

const p = (1n << 255n) - 19n;
const A = 486662n;

function powMod(base: bigint, exp: bigint): bigint {
  let result = 1n;
  base %= p;
  for (; exp > 0n; exp >>= 1n) {
    if (exp & 1n) result = (result * base) % p;
    base = (base * base) % p;
  }
  return result;
}

/** A square root of a square a (setup only, BigInt): which root does not matter, the map forces the sign. */
function sqrtOfSquare(a: bigint): bigint {
  a = ((a % p) + p) % p;
  let r = powMod(a, (p + 3n) / 8n);
  if ((r * r - a) % p !== 0n) r = (r * powMod(2n, (p - 1n) / 4n)) % p;
  assert((r * r - a) % p === 0n, 'hash-to-ec constant is a square');
  return r;
}

const aTimesAPlus2 = A * (A + 2n);
let fffb: readonly [Fe, Fe, Fe, Fe] | undefined;
/**
 * Monero's fe_fffb1..4: square roots of ∓2A(A+2) and ∓√−1·A(A+2), found on first use rather than at import: their
 * five BigInt powers ran in every page that imports the transaction codec, the explorer's and wallet's start included
 * (issue 32, docs/performance.md "Lighthouse").
 */
function mapRoots(): readonly [Fe, Fe, Fe, Fe] {
  if (fffb) return fffb;
  const sqrtM1 = powMod(2n, (p - 1n) / 4n);
  fffb = [-2n * aTimesAPlus2, 2n * aTimesAPlus2, -sqrtM1 * aTimesAPlus2, sqrtM1 * aTimesAPlus2].map((a) => feFromBigint(sqrtOfSquare(a))) as [Fe, Fe, Fe, Fe];
  return fffb;
}
const twoASquared = feFromBigint(2n * A * A);
const minusTwoA = feFromBigint(-2n * A);
const minusA = feFromBigint(-A);
const one = feFromBigint(1n);
const zero = fe();

/** `ge_fromfe_frombytes_vartime`: 32 bytes → a curve point (not yet in the prime subgroup), extended coordinates. */
function mapToExt(bytes32: Uint8Array): Ext {
  // All 256 bits count (no top-bit mask), reduced mod p: exactly what Monero's loader does (2^255 ≡ 19).
  const u = feFromBytes(bytes32);
  if ((bytes32[31]! & 0x80) !== 0) u[0] = u[0]! + 19;
  const u2 = fe();
  sqr(u2, u);
  const w = fe();
  add(w, u2, u2); // v = 2u²
  add(w, w, one); // w = v + 1
  const x = fe();
  const t = fe();
  sqr(x, w);
  mul(t, twoASquared, u2);
  sub(x, x, t); // x = w² − 2A²u²
  // fe_divpowm1(w, x): candidate √(w/x) = w·x³·(w·x⁷)^((p−5)/8).
  const x3 = fe();
  sqr(x3, x);
  mul(x3, x3, x);
  const X = fe();
  mul(t, x3, x3);
  mul(t, t, x);
  mul(t, t, w); // w·x⁷
  powP58(t, t);
  mul(X, w, x3);
  mul(X, X, t);
  sqr(t, X);
  mul(x, t, x); // X²·x
  const wMinusX = fe();
  const wPlusX = fe();
  sub(wMinusX, w, x);
  add(wPlusX, w, x);
  const z = fe();
  const [fffb1, fffb2, fffb3, fffb4] = mapRoots();
  let sign: boolean;
  if (isZero(wMinusX) || isZero(wPlusX)) {
    mul(X, X, isZero(wMinusX) ? fffb2 : fffb1);
    mul(X, X, u);
    mul(z, minusTwoA, u2);
    sign = false;
  } else {
    mul(x, x, sqrtMinusOne);
    mul(X, X, equals(w, x) ? fffb4 : fffb3);
    z.set(minusA);
    sign = true;
  }
  if (isOdd(X) !== sign) {
    sub(X, zero, X);
    carry(X, X);
  }
  const Z = fe();
  const Y = fe();
  add(Z, z, w);
  sub(Y, z, w);
  mul(X, X, Z);
  // The point is (X/Z, Y/Z); in extended coordinates (X·Z, Y·Z, Z², X·Y), which saves the field inversion.
  const point = { X: fe(), Y: fe(), Z: fe(), T: fe() } satisfies { X: Fe; Y: Fe; Z: Fe; T: Fe };
  mul(point.X, X, Z);
  mul(point.Y, Y, Z);
  sqr(point.Z, Z);
  mul(point.T, X, Y);
  return point;
}

/** `ge_fromfe_frombytes_vartime` as a noble point. */
export function mapToPoint(bytes32: Uint8Array): PointT {
  return toPoint(mapToExt(bytes32));
}

/** Monero `hash_to_ec` (master: `biased_hash_to_ec`): 8·map(keccak(data)), a point of the prime subgroup. */
export function hashToEcExt(data: Uint8Array): Ext {
  return mulEightExt(mapToExt(fastHash(data)));
}

/** `hashToEcExt` as a noble point. */
export function hashToEc(data: Uint8Array): PointT {
  return toPoint(hashToEcExt(data));
}
