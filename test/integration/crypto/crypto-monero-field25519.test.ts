// The limb field and strict decoder of the verification fast path (src/crypto/monero/field25519.ts, vartime.ts
// decodeExt, point.ts decodePublicExt/decodeSubgroupExt) against BigInt arithmetic mod p and noble's strict
// decoding: random and edge values, loosely reduced limbs, valid and refused encodings, Monero's check_key vectors.
// Point addition, doubling and the MSMs on top are checked against noble in crypto-monero-vartime.test.ts.
import fc from 'fast-check';
import { ED25519_TORSION_SUBGROUP } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import * as F from '../../../src/crypto/monero/field25519.ts';
import { G, Point, decodePoint, decodePublicExt, decodePublicPoint, decodeSubgroupExt, decodeSubgroupPoint } from '../../../src/crypto/monero/point.ts';
import { decodeExt, encodeAll, fromPoint, mulEightExt, toPoint } from '../../../src/crypto/monero/vartime.ts';
import { groupOrder } from '../../../src/crypto/monero/scalar.ts';
import { fromHex } from '../../../src/util/bytes.ts';
import { readVectorText } from '../../vectors.ts';

const p = (1n << 255n) - 19n;
const modP = (a: bigint): bigint => ((a % p) + p) % p;
function powMod(b: bigint, e: bigint): bigint {
  let r = 1n;
  for (b = modP(b); e > 0n; e >>= 1n, b = (b * b) % p) if (e & 1n) r = (r * b) % p;
  return r;
}
const isSquare = (a: bigint): boolean => modP(a) === 0n || powMod(a, (p - 1n) / 2n) === 1n;

const edges = [0n, 1n, 2n, 18n, 19n, p - 1n, p - 2n, (1n << 254n) - 1n, (1n << 255n) - 20n, 1n << 200n];
const elementArb = fc.oneof(fc.bigInt({ min: 0n, max: p - 1n }), fc.constantFrom(...edges));
const bytesArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const torsion = ED25519_TORSION_SUBGROUP.map((hex) => Point.fromHex(hex));
const pointArb = fc.tuple(fc.bigInt({ min: 1n, max: groupOrder - 1n }), fc.integer({ min: 0, max: 7 })).map(([k, t]) => G.multiply(k).add(torsion[t]!));

/** A loosely reduced form of a: limbs spread over [0, 2^18), as mul outputs and sums of them carry. */
function loose(a: bigint): F.Fe {
  const x = F.feFromBigint(a);
  const o = F.fe();
  F.add(o, x, F.feFromBigint(0n));
  // Move 2^17 down from each limb above the first (same value, limbs up to 2^18).
  for (let i = F.limbCount - 1; i > 0; i--) {
    if (o[i]! >= 1) {
      o[i] = o[i]! - 1;
      o[i - 1] = o[i - 1]! + 131072;
    }
  }
  return o;
}

function bigOf(bytes: Uint8Array, maskTop: boolean): bigint {
  let v = 0n;
  for (let i = 31; i >= 0; i--) v = (v << 8n) | BigInt(i === 31 && maskTop ? bytes[i]! & 0x7f : bytes[i]!);
  return v;
}

function encodingOf(y: bigint, sign: boolean): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((y >> BigInt(8 * i)) & 0xffn);
  if (sign) out[31]! |= 0x80;
  return out;
}

function nobleDecodes(bytes: Uint8Array): Point | undefined {
  try {
    return Point.fromBytes(bytes, false);
  } catch {
    return undefined;
  }
}

function outcome(f: () => unknown): string {
  try {
    const r = f();
    return r instanceof Point ? r.toHex() : toPoint(r as never).toHex();
  } catch (e) {
    return `refused: ${(e as Error).message}`;
  }
}

describe('field25519: GF(2^255 − 19) on 15×17-bit limbs', () => {
  it('multiplies, squares, adds and subtracts like BigInt mod p, also on loosely reduced limbs', () => {
    fc.assert(fc.property(elementArb, elementArb, (a, b) => {
      const o = F.fe();
      F.mul(o, loose(a), loose(b));
      expect(F.feToBigint(o)).toBe(modP(a * b));
      F.sqr(o, loose(a));
      expect(F.feToBigint(o)).toBe(modP(a * a));
      const s = F.fe();
      F.sub(s, F.feFromBigint(a), F.feFromBigint(b));
      F.add(o, F.feFromBigint(a), F.feFromBigint(b));
      // Sums and differences go straight into a product: the bounds the point formulas rely on.
      F.mul(o, o, s);
      expect(F.feToBigint(o)).toBe(modP((a + b) * (a - b)));
      expect(F.equals(F.feFromBigint(a), loose(a))).toBe(true);
      expect(F.isZero(F.feFromBigint(a))).toBe(a === 0n);
      expect(F.isOdd(loose(a))).toBe((a & 1n) === 1n);
    }), { numRuns: 300 });
  });

  it('inverts, raises to (p − 5)/8 and takes square roots of ratios like BigInt', () => {
    fc.assert(fc.property(elementArb, elementArb, (u, v) => {
      const o = F.fe();
      if (v !== 0n) {
        F.invert(o, loose(v));
        expect(F.feToBigint(o)).toBe(powMod(v, p - 2n));
      }
      F.powP58(o, loose(u));
      expect(F.feToBigint(o)).toBe(powMod(u, (p - 5n) / 8n));
      if (v === 0n) return;
      const root = F.sqrtRatio(F.feFromBigint(u), F.feFromBigint(v));
      expect(root !== undefined).toBe(isSquare(modP(u * powMod(v, p - 2n))));
      if (root !== undefined) expect(modP(v * F.feToBigint(root) ** 2n)).toBe(u);
    }), { numRuns: 100 });
  });

  it('reads and writes 32-byte little-endian values; canonical means below p', () => {
    fc.assert(fc.property(fc.oneof(bytesArb, fc.constantFrom(...edges, p, p + 1n, (1n << 255n) - 1n).map((v) => encodingOf(v, false))), (bytes) => {
      const value = bigOf(bytes, true);
      expect(F.feToBigint(F.feFromBytes(bytes))).toBe(modP(value));
      expect(F.isCanonicalBytes(bytes)).toBe(value < p);
      if (value < p) expect(F.feToBytes(loose(value))).toEqual(encodingOf(value, false));
    }), { numRuns: 300 });
  });
});

describe('decodeExt: the strict decoder of the verification path', () => {
  it('accepts and refuses exactly the encodings noble strict fromBytes does, with the same point', () => {
    const valid = pointArb.chain((P) => fc.boolean().map((flip) => {
      const b = P.toBytes();
      if (flip) b[31]! ^= 0x80;
      return b;
    }));
    // y ≥ p (non-canonical), and x = 0 with the sign bit (y = ±1): refused by both.
    const refusedShapes = fc.constantFrom(encodingOf(p, false), encodingOf(p + 1n, true), encodingOf((1n << 255n) - 1n, false), encodingOf(1n, true), encodingOf(p - 1n, true), encodingOf(1n, false), encodingOf(p - 1n, false));
    fc.assert(fc.property(fc.oneof(bytesArb, valid, refusedShapes, fc.constantFrom(...torsion.map((t) => t.toBytes()))), (bytes) => {
      const mine = decodeExt(bytes);
      const noble = nobleDecodes(bytes);
      expect(mine === undefined).toBe(noble === undefined);
      if (mine !== undefined) {
        expect(toPoint(mine).equals(noble!)).toBe(true);
        expect(encodeAll([mine])[0]).toEqual(bytes);
        expect(toPoint(mulEightExt(mine)).equals(noble!.multiplyUnsafe(8n))).toBe(true);
      }
    }), { numRuns: 400 });
  });

  it('refuses and accepts like decodePublicPoint and decodeSubgroupPoint, with the same errors', () => {
    const inputs = fc.oneof(bytesArb, pointArb.map((P) => P.toBytes()), fc.constantFrom(...torsion.map((t) => t.toBytes())),
      pointArb.map((P) => P.multiplyUnsafe(8n).toBytes()), fc.constant(Point.ZERO.toBytes()), fc.constant(new Uint8Array(31)));
    fc.assert(fc.property(inputs, (bytes) => {
      expect(outcome(() => decodePublicExt(bytes, 'x'))).toBe(outcome(() => decodePublicPoint(bytes, 'x')));
      expect(outcome(() => decodeSubgroupExt(bytes, 'x'))).toBe(outcome(() => decodeSubgroupPoint(bytes, 'x')));
    }), { numRuns: 150 });
  });

  it("matches Monero's check_key vectors (tests.txt) verdict for verdict", () => {
    const keys = readVectorText('monero', 'tests.txt').split('\n').map((l) => l.trim().split(/\s+/)).filter((f) => f[0] === 'check_key');
    expect(keys.length).toBe(372);
    for (const [, hex, ok] of keys) {
      const bytes = fromHex(hex!);
      expect(decodeExt(bytes) !== undefined).toBe(ok === 'true');
      expect(decodeExt(bytes) !== undefined).toBe(outcome(() => decodePoint(bytes)).startsWith('refused') === false);
    }
  });

  it('round-trips through noble', () => {
    fc.assert(fc.property(pointArb, (P) => {
      expect(toPoint(fromPoint(P)).equals(P)).toBe(true);
    }), { numRuns: 20 });
  });
});
