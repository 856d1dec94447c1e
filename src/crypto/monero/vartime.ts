/**
 * Variable-time ed25519 arithmetic for PUBLIC scalars and points only (verification): the inner loops of CLSAG and
 * Bulletproofs+ verification, on the limb field of field25519.ts instead of noble's BigInt Point class. Same group,
 * same results; what changes is the cost of one group operation (about 30% of noble's Point's time through the
 * allocating `add`/`double` in bench/field25519.ts, less in place inside the loops: straight-line float limbs,
 * doublings that skip T when another doubling follows) and the algorithms on top: Straus with a shared doubling
 * chain and per-point wNAF tables, Pippenger with signed digits, one field inversion for several encodings. Points enter from noble
 * (`fromPoint`) or from the strict decoder here (`decodeExt`, which accepts exactly the encodings noble's strict
 * `fromBytes` accepts) and leave as encodings or noble points. Signing never comes here: secrets stay on noble's
 * constant-time path (point.ts `mulSecret`, `mulBase`).
 *
 * Every coordinate of an Ext is kept "carried" (field25519.ts bounds) and reduced to [0, p) only to be encoded or
 * compared. Twisted Edwards a = −1, formulas of Hisil–Wong–Carter–Dawson 2008 (ref10's ge_add/ge_sub/ge_p2_dbl).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  add as feAdd, canonical, carry, equals, fe, feCopy, feFromBigint, feFromBytes, feToBigint, feToBytes, invert, isCanonicalBytes, limbCount,
  isOdd, isZero, mul, sqr, sqrtRatio, sub as feSub, type Fe,
} from './field25519.ts';

// noble directly, not point.ts: point.ts builds its subgroup check on this module.
const Point = ed25519.Point;
type PointT = InstanceType<typeof Point>;

const one: Fe = feFromBigint(1n);
const zero: Fe = fe();
const d: Fe = feFromBigint(Point.CURVE().d);
const d2: Fe = feFromBigint(2n * Point.CURVE().d);

/** Extended coordinates: x = X/Z, y = Y/Z, T = X·Y/Z. */
export interface Ext {
  readonly X: Fe;
  readonly Y: Fe;
  readonly Z: Fe;
  readonly T: Fe;
}

/** A point prepared as an addend: (Y − X, Y + X, 2Z, 2d·T). */
export interface Cached {
  readonly ymx: Fe;
  readonly ypx: Fe;
  readonly z2: Fe;
  readonly t2d: Fe;
}

function newExt(): Ext {
  return { X: fe(), Y: fe(), Z: fe(), T: fe() };
}

function copyExt(a: Ext): Ext {
  return { X: feCopy(a.X), Y: feCopy(a.Y), Z: feCopy(a.Z), T: feCopy(a.T) };
}

/** A copy of a in one allocation of its own, not in field25519.ts's shared slabs: for points kept long. */
export function ownedExt(a: Ext): Ext {
  const n = limbCount;
  const own = new Float64Array(4 * n);
  const e = { X: own.subarray(0, n), Y: own.subarray(n, 2 * n), Z: own.subarray(2 * n, 3 * n), T: own.subarray(3 * n) };
  e.X.set(a.X);
  e.Y.set(a.Y);
  e.Z.set(a.Z);
  e.T.set(a.T);
  return e;
}

/** The neutral element; never written to (every in-place operation here writes to its own accumulator). */
export const identity: Ext = ownedExt({ X: fe(), Y: one, Z: one, T: fe() });

export function fromPoint(point: PointT): Ext {
  return { X: feFromBigint(point.X), Y: feFromBigint(point.Y), Z: feFromBigint(point.Z), T: feFromBigint(point.T) };
}

export function toPoint(e: Ext): PointT {
  return new Point(feToBigint(e.X), feToBigint(e.Y), feToBigint(e.Z), feToBigint(e.T));
}

export function cached(e: Ext): Cached {
  const c = { ymx: fe(), ypx: fe(), z2: fe(), t2d: fe() };
  feSub(c.ymx, e.Y, e.X);
  feAdd(c.ypx, e.Y, e.X);
  feAdd(c.z2, e.Z, e.Z);
  mul(c.t2d, e.T, d2);
  return c;
}

// Scratch for the in-place operations (one thread; no operation here calls another while they are live).
const tA = fe();
const tB = fe();
const tC = fe();
const tD = fe();
const tE = fe();
const tF = fe();
const tG = fe();
const tH = fe();

/** The completed point (E, F, G, H) in the scratch to extended coordinates in o; T only when `withT`. */
function completedToExtended(o: Ext, withT: boolean): void {
  mul(o.X, tE, tF);
  mul(o.Y, tG, tH);
  mul(o.Z, tF, tG);
  if (withT) mul(o.T, tE, tH);
}

/** o = a ± b (o may be a); T only when `withT` (else stale: only a doubling may follow). */
function addInto(o: Ext, a: Ext, b: Cached, withT: boolean, minus: boolean): void {
  feSub(tE, a.Y, a.X);
  mul(tA, tE, minus ? b.ypx : b.ymx);
  feAdd(tE, a.Y, a.X);
  mul(tB, tE, minus ? b.ymx : b.ypx);
  mul(tC, a.T, b.t2d);
  mul(tD, a.Z, b.z2);
  feSub(tE, tB, tA);
  if (minus) {
    feAdd(tF, tD, tC);
    feSub(tG, tD, tC);
  } else {
    feSub(tF, tD, tC);
    feAdd(tG, tD, tC);
  }
  feAdd(tH, tB, tA);
  completedToExtended(o, withT);
}

/** o = 2·a (o may be a); T only when `withT`. */
function doubleInto(o: Ext, a: Ext, withT: boolean): void {
  sqr(tA, a.X);
  sqr(tB, a.Y);
  sqr(tC, a.Z);
  feAdd(tC, tC, tC);
  feAdd(tD, a.X, a.Y);
  sqr(tD, tD);
  feAdd(tH, tA, tB);
  feSub(tE, tH, tD);
  feSub(tG, tA, tB);
  feAdd(tF, tC, tG);
  completedToExtended(o, withT);
}

/** a + b; T only when `withT` (left stale otherwise: only a doubling may follow). */
export function add(a: Ext, b: Cached, withT = true): Ext {
  const o = newExt();
  addInto(o, a, b, withT, false);
  return o;
}

/** a − b; T as in `add`. */
export function sub(a: Ext, b: Cached, withT = true): Ext {
  const o = newExt();
  addInto(o, a, b, withT, true);
  return o;
}

/** 2·a; T is computed only when `withT` (the next step adds), else stale and must not be read. */
export function double(a: Ext, withT = true): Ext {
  const o = newExt();
  doubleInto(o, a, withT);
  return o;
}

export function negate(a: Ext): Ext {
  const o = { X: fe(), Y: feCopy(a.Y), Z: feCopy(a.Z), T: fe() };
  feSub(o.X, zero, a.X);
  carry(o.X, o.X);
  feSub(o.T, zero, a.T);
  carry(o.T, o.T);
  return o;
}

export function isIdentity(a: Ext): boolean {
  return isZero(a.X) && equals(a.Y, a.Z);
}

/**
 * The point of a 32-byte encoding with exactly the rules of noble's strict `fromBytes` (RFC 8032 §5.1.3, Monero
 * `ge_frombytes_vartime`): y < p, x² = (y² − 1)/(d·y² + 1) must have a root, no x = 0 with the sign bit set. Undefined
 * for a refused encoding. Small order and torsion are the callers' checks (point.ts).
 */
export function decodeExt(bytes: Uint8Array): Ext | undefined {
  if (bytes.length !== 32 || !isCanonicalBytes(bytes)) return undefined;
  const y = feFromBytes(bytes);
  const u = fe();
  const v = fe();
  sqr(u, y);
  mul(v, u, d);
  feAdd(v, v, one);
  feSub(u, u, one);
  const x = sqrtRatio(u, v);
  if (x === undefined) return undefined;
  const signBit = (bytes[31]! & 0x80) !== 0;
  if (signBit && isZero(x)) return undefined;
  if (isOdd(x) !== signBit) {
    feSub(x, zero, x);
    carry(x, x);
  }
  const T = fe();
  mul(T, x, y);
  return { X: x, Y: y, Z: feCopy(one), T };
}

/** 8·a, as noble's `isSmallOrder` (8·P = O) and Monero's ge_mul8 need it. */
export function mulEightExt(a: Ext): Ext {
  const o = newExt();
  doubleInto(o, a, false);
  doubleInto(o, o, false);
  doubleInto(o, o, true);
  return o;
}

/** The standard 32-byte encodings of `points`, with one field inversion for all of them (Montgomery's trick). */
export function encodeAll(points: readonly Ext[]): Uint8Array[] {
  const prefix: Fe[] = new Array(points.length);
  let acc = feCopy(one);
  for (let i = 0; i < points.length; i++) {
    prefix[i] = acc;
    const next = fe();
    mul(next, acc, points[i]!.Z);
    acc = next;
  }
  const inverse = fe();
  invert(inverse, acc);
  const out: Uint8Array[] = new Array(points.length);
  const zInv = fe();
  const x = fe();
  const y = fe();
  for (let i = points.length - 1; i >= 0; i--) {
    mul(zInv, inverse, prefix[i]!);
    mul(inverse, inverse, points[i]!.Z);
    mul(x, points[i]!.X, zInv);
    mul(y, points[i]!.Y, zInv);
    const bytes = feToBytes(y);
    canonical(x, x);
    if ((x[0]! & 1) === 1) bytes[31]! |= 0x80;
    out[i] = bytes;
  }
  return out;
}

/** Odd multiples P, 3P, …, (2^(w−1) − 1)·P, as addends: the table of a width-w wNAF. */
export function oddMultiples(point: Ext, w: number): Cached[] {
  const count = 1 << (w - 2);
  const twice = cached(double(point));
  const table: Cached[] = [cached(point)];
  const current = copyExt(point);
  for (let i = 1; i < count; i++) {
    addInto(current, current, twice, true, false);
    table.push(cached(current));
  }
  return table;
}

// Digit arrays come from shared slabs for the reason field25519.ts gives for its elements (each above 64 bytes).
const wnafBits = new Uint8Array(300);
const digitSlabBytes = 16384;
let digitSlab = new Int8Array(digitSlabBytes);
let digitSlabUsed = 0;

function digitArray(length: number): Int8Array {
  if (digitSlabUsed + length > digitSlabBytes) {
    digitSlab = new Int8Array(digitSlabBytes);
    digitSlabUsed = 0;
  }
  const digits = digitSlab.subarray(digitSlabUsed, digitSlabUsed + length);
  digitSlabUsed += length;
  return digits;
}

/** Width-w non-adjacent form of k (0 ≤ k < 2^256), least significant digit first (odd digits in ±[1, 2^(w−1)), or 0). */
export function wnafDigits(k: bigint, w: number): Int8Array {
  // On a bit array of plain numbers: the BigInt is read once, 4 bits per hex digit.
  const bits = wnafBits;
  bits.fill(0);
  const hex = k.toString(16);
  for (let h = 0; h < hex.length; h++) {
    const nibble = parseInt(hex[hex.length - 1 - h]!, 16);
    for (let b = 0; b < 4; b++) bits[4 * h + b] = (nibble >> b) & 1;
  }
  const digits = digitArray(256 + w);
  const window = 1 << w;
  for (let i = 0; i < 256 + w; i++) {
    if (bits[i] === 0) continue;
    let value = 0;
    for (let j = 0; j < w; j++) value |= bits[i + j]! << j;
    for (let j = 0; j < w; j++) bits[i + j] = 0;
    if (value >= window >> 1) {
      value -= window;
      // k − value·2^i carries 2^(i+w) upward.
      let j = i + w;
      while (bits[j] === 1) bits[j++] = 0;
      bits[j] = 1;
    }
    digits[i] = value;
  }
  return digits;
}

/** One term of a Straus sum: a wNAF table and the scalar's digits for it. */
export interface StrausTerm {
  readonly table: readonly Cached[];
  readonly digits: Int8Array;
}

export function strausTerm(point: Ext, scalar: bigint, w = 5): StrausTerm {
  return { table: oddMultiples(point, w), digits: wnafDigits(scalar, w) };
}

/** Σ digits·tables with one shared doubling chain (Straus–Shamir); tables may be reused across calls. */
export function straus(terms: readonly StrausTerm[]): Ext {
  let top = -1;
  for (const t of terms) for (let i = t.digits.length - 1; i > top; i--) if (t.digits[i] !== 0) top = i;
  const acc = copyExt(identity);
  for (let i = top; i >= 0; i--) {
    let last = -1;
    for (let t = 0; t < terms.length; t++) if (terms[t]!.digits[i] !== 0) last = t;
    // T only where an addition follows, or on the result (callers may add to it).
    if (i !== top) doubleInto(acc, acc, last >= 0 || i === 0);
    for (let t = 0; t <= last; t++) {
      const digit = terms[t]!.digits[i]!;
      const withT = t !== last || i === 0;
      if (digit > 0) addInto(acc, acc, terms[t]!.table[(digit - 1) >> 1]!, withT, false);
      else if (digit < 0) addInto(acc, acc, terms[t]!.table[(-digit - 1) >> 1]!, withT, true);
    }
  }
  return acc;
}

/** Signed base-2^c digits of k (each in [−2^(c−1), 2^(c−1)]), least significant first. */
function signedWindows(k: bigint, c: number, windows: number): number[] {
  const out: number[] = new Array(windows);
  const mask = BigInt((1 << c) - 1);
  const half = 1 << (c - 1);
  let borrow = 0;
  for (let j = 0; j < windows; j++) {
    let digit = Number(k & mask) + borrow;
    k >>= BigInt(c);
    borrow = digit > half ? 1 : 0;
    if (borrow === 1) digit -= 1 << c;
    out[j] = digit;
  }
  return out;
}

/** Point operations of a Pippenger sum with window c over n points: n adds and 2^c bucket adds per c bits. */
function pippengerCost(n: number, c: number): number {
  return Math.ceil(254 / c) * (n + (1 << c) + c);
}

/** Of a width-5 Straus sum: one doubling chain, and per point a table of 8 and an addition every ~6 bits. */
function strausCost(n: number): number {
  return 254 + 52 * n;
}

/** Σ (b + 1)·buckets[b], as a running sum from the top bucket down. */
function sumBuckets(buckets: readonly (Ext | undefined)[]): Ext | undefined {
  let running: Ext | undefined;
  let sum: Ext | undefined;
  for (let b = buckets.length - 1; b >= 0; b--) {
    const bucket = buckets[b];
    if (bucket !== undefined) {
      if (running === undefined) running = copyExt(bucket);
      else addInto(running, running, cached(bucket), true, false);
    }
    if (running === undefined) continue;
    if (sum === undefined) sum = copyExt(running);
    else addInto(sum, sum, cached(running), true, false);
  }
  return sum;
}

/** buckets[|digit| − 1] ±= addend, the bucket made on first use. */
function addToBucket(buckets: (Ext | undefined)[], digit: number, addend: Cached): void {
  const at = Math.abs(digit) - 1;
  let bucket = buckets[at];
  if (bucket === undefined) buckets[at] = bucket = copyExt(identity);
  addInto(bucket, bucket, addend, true, digit < 0);
}

/** Σ scalars[i]·points[i] (scalars in [0, l), public): Straus or signed-digit Pippenger, whichever costs fewer operations. */
export function msm(points: readonly Ext[], scalars: readonly bigint[]): Ext {
  const n = points.length;
  let c = 2;
  while (c < 16 && pippengerCost(n, c + 1) < pippengerCost(n, c)) c++;
  // Straus wins below a few hundred points: its doubling chain is shared and each point costs ~52 operations.
  if (strausCost(n) <= pippengerCost(n, c)) return straus(points.map((point, i) => strausTerm(point, scalars[i]!)));
  const windows = Math.ceil(254 / c) + 1;
  const addends = points.map(cached);
  const digits = scalars.map((k) => signedWindows(k, c, windows));
  const bucketCount = 1 << (c - 1);
  let total: Ext | undefined;
  for (let j = windows - 1; j >= 0; j--) {
    if (total !== undefined) for (let k = 0; k < c; k++) doubleInto(total, total, k === c - 1);
    const buckets: (Ext | undefined)[] = new Array(bucketCount).fill(undefined);
    for (let i = 0; i < n; i++) {
      const digit = digits[i]![j]!;
      if (digit !== 0) addToBucket(buckets, digit, addends[i]!);
    }
    const sum = sumBuckets(buckets);
    if (sum === undefined) continue;
    if (total === undefined) total = sum;
    else addInto(total, total, cached(sum), true, false);
  }
  return total ?? copyExt(identity);
}

/**
 * Bases fixed for the life of the process (the Bulletproofs+ generators, G and H) with, for each, its multiples
 * 2^(c·j)·B for every window j: a sum over them needs no doublings and shares ONE set of buckets across all windows,
 * so a wide window pays off — about n·⌈254/c⌉ additions plus 2^c, against ⌈254/c⌉·(n + 2^c) for plain Pippenger.
 */
const fixedWindow = 10;
const fixedWindows = Math.ceil(254 / fixedWindow) + 1;

/** The shifted multiples of one fixed base (about 260 doublings, once). */
export function fixedBaseTable(base: Ext): Cached[] {
  const table: Cached[] = [];
  const current = copyExt(base);
  for (let j = 0; j < fixedWindows; j++) {
    table.push(cached(current));
    if (j < fixedWindows - 1) for (let k = 0; k < fixedWindow; k++) doubleInto(current, current, k === fixedWindow - 1);
  }
  return table;
}

/** Σ scalars[i]·bases[i] for bases given as fixedBaseTable tables (scalars in [0, l), public). */
export function fixedMsm(tables: readonly (readonly Cached[])[], scalars: readonly bigint[]): Ext {
  const buckets: (Ext | undefined)[] = new Array(1 << (fixedWindow - 1)).fill(undefined);
  scalars.forEach((k, i) => {
    const digits = signedWindows(k, fixedWindow, fixedWindows);
    const table = tables[i]!;
    for (let j = 0; j < fixedWindows; j++) {
      const digit = digits[j]!;
      if (digit !== 0) addToBucket(buckets, digit, table[j]!);
    }
  });
  return sumBuckets(buckets) ?? copyExt(identity);
}
