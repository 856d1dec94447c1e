/**
 * Monero's hash-to-point: `ge_fromfe_frombytes_vartime` (crypto-ops.c), a CryptoNote-specific Elligator-style map
 * that is NOT RFC 9380 (noble's `ed25519_hasher` gives different points), and `hash_to_ec` = 8·map(keccak(x)),
 * called `biased_hash_to_ec` on Monero master. Key images, ring signatures, CLSAG and the Bulletproofs+ generators
 * all go through it. Field arithmetic is BigInt mod p = 2^255 − 19 (variable time: inputs are public).
 */
import { bytesToNumberLE } from '@noble/curves/utils.js';
import { assert } from '../../errors.ts';
import { Point, mulEight, type Point as PointT } from './point.ts';
import { fastHash } from './scalar.ts';

const Fp = Point.Fp;
const p: bigint = Fp.ORDER;
const A = 486662n;

function fmod(a: bigint): bigint {
  const r = a % p;
  return r < 0n ? r + p : r;
}

function pow(base: bigint, exp: bigint): bigint {
  return Fp.pow(fmod(base), exp);
}

/** A square root of a (a must be a square); which of the two roots does not matter, the map forces the sign. */
function sqrt(a: bigint): bigint {
  let r = pow(a, (p + 3n) / 8n);
  if (fmod(r * r - a) !== 0n) r = fmod(r * sqrtMinusOne);
  assert(fmod(r * r - a) === 0n, 'hash-to-ec constant is a square');
  return r;
}

/** x^(2^n) mod p. */
function squarings(x: bigint, n: number): bigint {
  for (let i = 0; i < n; i++) x = (x * x) % p;
  return x;
}

/**
 * z^((p − 5)/8) = z^(2^252 − 3) by ref10's fe_pow22523 chain: 250 squarings and 11 multiplications, about half the
 * work of square-and-multiply over an exponent of 250 one-bits.
 */
function powP58(z: bigint): bigint {
  const z2 = (z * z) % p;
  const z9 = (squarings(z2, 2) * z) % p;
  const z11 = (z9 * z2) % p;
  const z5 = (squarings(z11, 1) * z9) % p; // z^(2^5 − 1)
  const z10 = (squarings(z5, 5) * z5) % p;
  const z20 = (squarings(z10, 10) * z10) % p;
  const z40 = (squarings(z20, 20) * z20) % p;
  const z50 = (squarings(z40, 10) * z10) % p;
  const z100 = (squarings(z50, 50) * z50) % p;
  const z200 = (squarings(z100, 100) * z100) % p;
  const z250 = (squarings(z200, 50) * z50) % p;
  return (squarings(z250, 2) * z) % p;
}

const sqrtMinusOne = pow(2n, (p - 1n) / 4n);
const aTimesAPlus2 = A * (A + 2n);
// Monero's fe_fffb1..4: square roots of ∓2A(A+2) and ∓√−1·A(A+2).
const fffb1 = sqrt(fmod(-2n * aTimesAPlus2));
const fffb2 = sqrt(fmod(2n * aTimesAPlus2));
const fffb3 = sqrt(fmod(-sqrtMinusOne * aTimesAPlus2));
const fffb4 = sqrt(fmod(sqrtMinusOne * aTimesAPlus2));

/** `ge_fromfe_frombytes_vartime`: 32 bytes → a curve point (not yet in the prime subgroup). */
export function mapToPoint(bytes32: Uint8Array): PointT {
  // All 256 bits count (no top-bit mask), then reduce mod p: exactly what Monero's loader does.
  const u = fmod(bytesToNumberLE(bytes32));
  const v = fmod(2n * u * u);
  const w = fmod(v + 1n);
  let x = fmod(w * w - 2n * A * A * u * u);
  // fe_divpowm1(w, x): candidate √(w/x) = w·x³·(w·x⁷)^((p−5)/8).
  const x3 = pow(x, 3n);
  let X = fmod(w * x3 * powP58(fmod(w * x3 * x3 * x)));
  x = fmod(X * X * x);
  let z: bigint;
  let sign: bigint;
  if (fmod(w - x) === 0n || fmod(w + x) === 0n) {
    X = fmod(X * (fmod(w - x) === 0n ? fffb2 : fffb1) * u);
    z = fmod(-2n * A * u * u);
    sign = 0n;
  } else {
    x = fmod(x * sqrtMinusOne);
    X = fmod(X * (fmod(w - x) !== 0n ? fffb3 : fffb4));
    z = fmod(-A);
    sign = 1n;
  }
  if ((X & 1n) !== sign) X = fmod(-X);
  const Z = fmod(z + w);
  const Y = fmod(z - w);
  X = fmod(X * Z);
  // The point is (X/Z, Y/Z); in extended coordinates (X·Z, Y·Z, Z², X·Y), which saves the field inversion.
  const point = new Point(fmod(X * Z), fmod(Y * Z), fmod(Z * Z), fmod(X * Y));
  point.assertValidity();
  return point;
}

/** Monero `hash_to_ec` (master: `biased_hash_to_ec`): 8·map(keccak(data)), a point of the prime subgroup. */
export function hashToEc(data: Uint8Array): PointT {
  return mulEight(mapToPoint(fastHash(data)));
}
