// The variable-time verification arithmetic (src/crypto/monero/vartime.ts) against noble's Point on random and edge
// inputs: additions, doublings, encodings, Straus, Pippenger and fixed-base sums (with zero scalars, the identity, small-order
// and torsioned points, scalars near l), so the fast paths compute exactly the group noble computes.
import fc from 'fast-check';
import { ED25519_TORSION_SUBGROUP } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { G, Point, type Point as PointT } from '../../../src/crypto/monero/point.ts';
import { groupOrder } from '../../../src/crypto/monero/scalar.ts';
import { add, cached, double, encodeAll, fixedBaseTable, fixedMsm, fromPoint, identity, isIdentity, msm, negate, straus, strausTerm, sub, toPoint, wnafDigits } from '../../../src/crypto/monero/vartime.ts';

const scalarArb = fc.bigInt({ min: 0n, max: groupOrder - 1n });
const torsion = ED25519_TORSION_SUBGROUP.map((hex) => Point.fromHex(hex));
const pointArb = fc.tuple(fc.bigInt({ min: 1n, max: groupOrder - 1n }), fc.integer({ min: 0, max: 7 })).map(([k, t]) => G.multiply(k).add(torsion[t]!));

function nobleSum(points: PointT[], scalars: bigint[]): PointT {
  return points.reduce((acc, P, i) => acc.add(P.multiplyUnsafe(scalars[i]!)), Point.ZERO);
}

describe('vartime ed25519 arithmetic', () => {
  it('adds, subtracts, doubles and negates like noble', () => {
    fc.assert(fc.property(pointArb, pointArb, (P, Q) => {
      const a = fromPoint(P);
      const b = fromPoint(Q);
      expect(toPoint(add(a, cached(b))).equals(P.add(Q))).toBe(true);
      expect(toPoint(sub(a, cached(b))).equals(P.subtract(Q))).toBe(true);
      expect(toPoint(double(a)).equals(P.double())).toBe(true);
      expect(toPoint(negate(a)).equals(P.negate())).toBe(true);
      expect(isIdentity(add(a, cached(negate(a))))).toBe(true);
    }), { numRuns: 30 });
  });

  it('writes scalars in width-w NAF: odd digits below 2^(w−1) in size, w − 1 zeros after each, summing to k', () => {
    fc.assert(fc.property(fc.oneof(scalarArb, fc.constantFrom(0n, 1n, groupOrder, (1n << 253n) - 1n, (1n << 256n) - 1n)), fc.integer({ min: 2, max: 8 }), (k, w) => {
      const digits = wnafDigits(k, w);
      let sum = 0n;
      let lastNonZero = -w;
      digits.forEach((d, i) => {
        if (d === 0) return;
        expect(Math.abs(d) % 2).toBe(1);
        expect(Math.abs(d)).toBeLessThan(1 << (w - 1));
        expect(i - lastNonZero).toBeGreaterThanOrEqual(w);
        lastNonZero = i;
        sum += BigInt(d) << BigInt(i);
      });
      expect(sum).toBe(k);
    }), { numRuns: 200 });
  });

  it('encodes many points with one inversion exactly as noble does', () => {
    fc.assert(fc.property(fc.array(pointArb, { minLength: 1, maxLength: 5 }), (points) => {
      // Through an addition, so Z ≠ 1 and the coordinates are loosely reduced.
      const shifted = points.map((P) => add(fromPoint(P), cached(fromPoint(G))));
      expect(encodeAll(shifted)).toEqual(points.map((P) => P.add(G).toBytes()));
    }), { numRuns: 20 });
    expect(encodeAll([identity])).toEqual([Point.ZERO.toBytes()]);
  });

  it('sums with Straus like a sum of noble multiplications', () => {
    fc.assert(fc.property(fc.array(fc.tuple(pointArb, scalarArb), { minLength: 1, maxLength: 4 }), (terms) => {
      const expected = nobleSum(terms.map((t) => t[0]), terms.map((t) => t[1]));
      expect(toPoint(straus(terms.map(([P, k]) => strausTerm(fromPoint(P), k)))).equals(expected)).toBe(true);
    }), { numRuns: 15 });
    expect(isIdentity(straus([strausTerm(fromPoint(G), 0n)]))).toBe(true);
    // An even scalar ends on a doubling: the result's T must still be valid for later additions.
    const even = straus([strausTerm(fromPoint(G), 1n << 200n)]);
    expect(toPoint(add(even, cached(fromPoint(G)))).equals(G.multiplyUnsafe((1n << 200n) + 1n))).toBe(true);
    expect(toPoint(straus([strausTerm(fromPoint(G), groupOrder - 1n, 8)])).equals(G.negate())).toBe(true);
  });

  it('sums with Pippenger (hundreds of points) and with fixed-base tables like a sum of noble multiplications', () => {
    // 320 points: above the size where msm switches from Straus to Pippenger. Edge scalars and points included.
    const points = Array.from({ length: 320 }, (_, i) => (i === 3 ? Point.ZERO : i < 8 ? torsion[i]! : G.multiply(BigInt(i) * 7919n + 1n)));
    const scalars = points.map((_, i) => [0n, 1n, groupOrder - 1n, (1n << 252n) + BigInt(i), 2n ** 200n - 1n, BigInt(i) ** 29n % groupOrder][i % 6]!);
    const expected = nobleSum(points, scalars);
    expect(toPoint(msm(points.map(fromPoint), scalars)).equals(expected)).toBe(true);
    const some = points.slice(0, 40);
    expect(toPoint(fixedMsm(some.map((P) => fixedBaseTable(fromPoint(P))), scalars.slice(0, 40))).equals(nobleSum(some, scalars.slice(0, 40)))).toBe(true);
    fc.assert(fc.property(fc.array(fc.tuple(pointArb, scalarArb), { minLength: 1, maxLength: 6 }), (terms) => {
      const tables = terms.map(([P]) => fixedBaseTable(fromPoint(P)));
      expect(toPoint(fixedMsm(tables, terms.map((t) => t[1]))).equals(nobleSum(terms.map((t) => t[0]), terms.map((t) => t[1])))).toBe(true);
    }), { numRuns: 5 });
    expect(isIdentity(msm([], []))).toBe(true);
    expect(isIdentity(fixedMsm([], []))).toBe(true);
  });
});
