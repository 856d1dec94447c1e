/**
 * Points of ed25519 in Monero's conventions, with strict decoding (docs/privacy.md "Strict decoding").
 *
 * - `decodePoint` is Monero's `ge_frombytes_vartime`: 32 bytes, y < p, x recoverable, no "x = 0 with the sign bit".
 *   noble's strict `fromBytes` (zip215 off) accepts and rejects exactly the same encodings (all `check_key` vectors).
 * - `decodePublicPoint` also refuses the 8 small-order points (public keys, tx keys, commitments): they carry no
 *   secret and let a sender force derivations or commitments into the torsion subgroup.
 * - `decodeSubgroupPoint` requires l·P = O and P ≠ O (key images, range-proof V): Monero's 2017 key-image fix.
 * Multiplication by a secret uses noble's constant-time `multiply`; products with public scalars only (mulPublic,
 * mulAddPublic, msmPublic) run on the variable-time arithmetic of vartime.ts.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { PrivacyEncodingError } from './errors.ts';
import { mod } from './scalar.ts';
import { decodeExt, fromPoint, isIdentity, mulEightExt, straus, strausTerm, toPoint, type Ext } from './vartime.ts';

export const Point = ed25519.Point;
export type Point = InstanceType<typeof ed25519.Point>;
const pointBytes = 32;
/** The base point G. */
export const G: Point = Point.BASE;

export function encodePoint(p: Point): Uint8Array {
  return p.toBytes();
}

/** Monero `ge_frombytes_vartime` / `check_key`: any valid curve point, torsion and identity included. */
export function decodePoint(bytes: Uint8Array, what = 'point'): Point {
  if (bytes.length !== pointBytes) throw new PrivacyEncodingError(`${what}: got ${bytes.length} bytes, expected 32`);
  try {
    return Point.fromBytes(bytes, false);
  } catch {
    throw new PrivacyEncodingError(`${what}: not a canonical curve point`);
  }
}

/** A public key, tx key or commitment: a valid point of more than small order. */
export function decodePublicPoint(bytes: Uint8Array, what = 'public key'): Point {
  const p = decodePoint(bytes, what);
  if (p.isSmallOrder()) throw new PrivacyEncodingError(`${what}: a small-order point`);
  return p;
}

/** A key image or range-proof commitment: in the prime-order subgroup and not the identity. */
export function decodeSubgroupPoint(bytes: Uint8Array, what = 'key image'): Point {
  const p = decodePoint(bytes, what);
  if (p.is0()) throw new PrivacyEncodingError(`${what}: the identity`);
  if (!isTorsionFree(p)) throw new PrivacyEncodingError(`${what}: has a torsion component`);
  return p;
}

/**
 * `decodePublicPoint` on the verification path: the same encodings accepted and refused with the same errors (the
 * strict decoder of vartime.ts, tested against noble's), the point in the limb arithmetic of the verifiers.
 */
export function decodePublicExt(bytes: Uint8Array, what = 'public key'): Ext {
  const e = decodePointExt(bytes, what);
  if (isIdentity(mulEightExt(e))) throw new PrivacyEncodingError(`${what}: a small-order point`);
  return e;
}

/** `decodeSubgroupPoint` on the verification path (as `decodePublicExt`). */
export function decodeSubgroupExt(bytes: Uint8Array, what = 'key image'): Ext {
  const e = decodePointExt(bytes, what);
  if (isIdentity(e)) throw new PrivacyEncodingError(`${what}: the identity`);
  if (!isIdentity(straus([strausTerm(e, Point.Fn.ORDER)]))) throw new PrivacyEncodingError(`${what}: has a torsion component`);
  return e;
}

/** `decodePoint` on the verification path (as `decodePublicExt`): any curve point, torsion and identity included. */
export function decodePointExt(bytes: Uint8Array, what = 'point'): Ext {
  if (bytes.length !== pointBytes) throw new PrivacyEncodingError(`${what}: got ${bytes.length} bytes, expected 32`);
  const e = decodeExt(bytes);
  if (e === undefined) throw new PrivacyEncodingError(`${what}: not a canonical curve point`);
  return e;
}

/** l·P = O, through the variable-time Straus chain (the point is public): about half noble's `isTorsionFree`. */
function isTorsionFree(p: Point): boolean {
  return isIdentity(straus([strausTerm(fromPoint(p), Point.Fn.ORDER)]));
}

/** 8·P: clears any torsion component (Monero `ge_mul8`). */
export function mulEight(p: Point): Point {
  return p.double().double().double();
}

/** s·P for a secret s, constant-time in s (noble `multiply`); s must be in [1, l). */
export function mulSecret(p: Point, s: bigint): Point {
  return p.multiply(mod(s));
}

/** s·P for a public s (vartime; 0 allowed). */
export function mulPublic(p: Point, s: bigint): Point {
  return toPoint(straus([strausTerm(fromPoint(p), mod(s))]));
}

/** s·G for a secret s, constant-time through noble's precomputed base table. */
export function mulBase(s: bigint): Point {
  return G.multiply(mod(s));
}

/** Σ sᵢ·Pᵢ for public scalars (Straus–Shamir, vartime): the 2–4 point shapes of signature verification. */
export function mulAddPublic(points: Point[], scalars: bigint[]): Point {
  return toPoint(straus(points.map((p, i) => strausTerm(fromPoint(p), mod(scalars[i]!)))));
}
