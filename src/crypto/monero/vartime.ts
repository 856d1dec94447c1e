/**
 * Variable-time ed25519 arithmetic for PUBLIC scalars and points only (verification): the inner loops of CLSAG and
 * Bulletproofs+ verification, written on bare BigInt extended coordinates instead of noble's Point class. Same
 * group, same results; what changes is the cost of one group operation (about 3 µs here instead of 7 µs: no
 * per-operation validation or object checks, the field reduction specialised to p = 2^255 − 19 and done lazily,
 * and doublings that skip the T coordinate when the next step is another doubling) and the algorithms on top:
 * Straus with a shared doubling chain and per-point wNAF tables, Pippenger with signed digits, and one field
 * inversion for several encodings. Points enter from noble (`fromPoint`, after noble's strict decoding) and leave
 * as encodings or noble points, so decoding rules stay exactly those of point.ts.
 *
 * Field elements here are "loosely reduced": non-negative and below 2^256 (so possibly ≥ p); every value is reduced
 * fully before it is encoded or compared. Twisted Edwards a = −1, formulas of Hisil–Wong–Carter–Dawson 2008.
 */
import { ed25519 } from '@noble/curves/ed25519.js';

// noble directly, not point.ts: point.ts builds its subgroup check on this module.
const Point = ed25519.Point;
type PointT = InstanceType<typeof Point>;

const p: bigint = Point.Fp.ORDER;
const p4 = 4n * p;
const low255 = (1n << 255n) - 1n;
const d2: bigint = (2n * Point.CURVE().d) % p;

/** A loosely reduced representative of a (any non-negative a below ~2^520): 2^255 ≡ 19 (mod p), twice. */
function red(a: bigint): bigint {
  const r = (a & low255) + 19n * (a >> 255n);
  return (r & low255) + 19n * (r >> 255n);
}

function full(a: bigint): bigint {
  return a % p;
}

/** Extended coordinates: x = X/Z, y = Y/Z, T = X·Y/Z. */
export interface Ext {
  readonly X: bigint;
  readonly Y: bigint;
  readonly Z: bigint;
  readonly T: bigint;
}

/** A point prepared as an addend: (Y − X, Y + X, 2Z, 2d·T). */
export interface Cached {
  readonly ymx: bigint;
  readonly ypx: bigint;
  readonly z2: bigint;
  readonly t2d: bigint;
}

export const identity: Ext = { X: 0n, Y: 1n, Z: 1n, T: 0n };

export function fromPoint(point: PointT): Ext {
  return { X: point.X, Y: point.Y, Z: point.Z, T: point.T };
}

export function toPoint(e: Ext): PointT {
  return new Point(full(e.X), full(e.Y), full(e.Z), full(e.T));
}

export function cached(e: Ext): Cached {
  return { ymx: e.Y - e.X + p4, ypx: e.Y + e.X, z2: 2n * e.Z, t2d: red(e.T * d2) };
}

/** a + b; T only when `withT` (left 0 otherwise: only a doubling may follow). */
export function add(a: Ext, b: Cached, withT = true): Ext {
  const A = red((a.Y - a.X + p4) * b.ymx);
  const B = red((a.Y + a.X) * b.ypx);
  const C = red(a.T * b.t2d);
  const D = red(a.Z * b.z2);
  const E = B - A + p4;
  const F = D - C + p4;
  const G = D + C;
  const H = B + A;
  return { X: red(E * F), Y: red(G * H), Z: red(F * G), T: withT ? red(E * H) : 0n };
}

/** a − b; T as in `add`. */
export function sub(a: Ext, b: Cached, withT = true): Ext {
  const A = red((a.Y - a.X + p4) * b.ypx);
  const B = red((a.Y + a.X) * b.ymx);
  const C = red(a.T * b.t2d);
  const D = red(a.Z * b.z2);
  const E = B - A + p4;
  const F = D + C;
  const G = D - C + p4;
  const H = B + A;
  return { X: red(E * F), Y: red(G * H), Z: red(F * G), T: withT ? red(E * H) : 0n };
}

/** 2·a; T is computed only when `withT` (the next step adds), else left 0 and must not be read. */
export function double(a: Ext, withT = true): Ext {
  const A = red(a.X * a.X);
  const B = red(a.Y * a.Y);
  const C = 2n * red(a.Z * a.Z);
  const s = a.X + a.Y;
  const H = A + B;
  const E = H - red(s * s) + p4;
  const G = A - B + p4;
  const F = C + G;
  return { X: red(E * F), Y: red(G * H), Z: red(F * G), T: withT ? red(E * H) : 0n };
}

export function negate(a: Ext): Ext {
  return { X: p4 - a.X, Y: a.Y, Z: a.Z, T: p4 - a.T };
}

export function isIdentity(a: Ext): boolean {
  return full(a.X) === 0n && full(a.Y) === full(a.Z);
}

/** Field inversion of a non-zero element (noble's extended Euclid). */
function inv(a: bigint): bigint {
  return Point.Fp.inv(full(a));
}

/** The standard 32-byte encodings of `points`, with one field inversion for all of them (Montgomery's trick). */
export function encodeAll(points: readonly Ext[]): Uint8Array[] {
  const prefix: bigint[] = new Array(points.length);
  let acc = 1n;
  for (let i = 0; i < points.length; i++) {
    prefix[i] = acc;
    acc = red(acc * points[i]!.Z);
  }
  let inverse = inv(acc);
  const out: Uint8Array[] = new Array(points.length);
  for (let i = points.length - 1; i >= 0; i--) {
    const zInv = red(inverse * prefix[i]!);
    inverse = red(inverse * points[i]!.Z);
    const x = full(red(points[i]!.X * zInv));
    let y = full(red(points[i]!.Y * zInv));
    const bytes = new Uint8Array(32);
    for (let k = 0; k < 32; k++) {
      bytes[k] = Number(y & 0xffn);
      y >>= 8n;
    }
    if ((x & 1n) === 1n) bytes[31]! |= 0x80;
    out[i] = bytes;
  }
  return out;
}

/** Odd multiples P, 3P, …, (2^(w−1) − 1)·P, as addends: the table of a width-w wNAF. */
export function oddMultiples(point: Ext, w: number): Cached[] {
  const count = 1 << (w - 2);
  const twice = cached(double(point));
  const table: Cached[] = [cached(point)];
  let current = point;
  for (let i = 1; i < count; i++) {
    current = add(current, twice);
    table.push(cached(current));
  }
  return table;
}

/** Width-w non-adjacent form of k (0 ≤ k < 2^256), least significant digit first (odd digits in ±[1, 2^(w−1)), or 0). */
export function wnafDigits(k: bigint, w: number): Int8Array {
  // On a bit array of plain numbers: the BigInt is read once, 4 bits per hex digit.
  const bits = new Uint8Array(258 + w);
  const hex = k.toString(16);
  for (let h = 0; h < hex.length; h++) {
    const nibble = parseInt(hex[hex.length - 1 - h]!, 16);
    for (let b = 0; b < 4; b++) bits[4 * h + b] = (nibble >> b) & 1;
  }
  const digits = new Int8Array(256 + w);
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
  let acc = identity;
  for (let i = top; i >= 0; i--) {
    let last = -1;
    for (let t = 0; t < terms.length; t++) if (terms[t]!.digits[i] !== 0) last = t;
    // T only where an addition follows, or on the result (callers may add to it).
    if (i !== top) acc = double(acc, last >= 0 || i === 0);
    for (let t = 0; t <= last; t++) {
      const digit = terms[t]!.digits[i]!;
      const withT = t !== last || i === 0;
      if (digit > 0) acc = add(acc, terms[t]!.table[(digit - 1) >> 1]!, withT);
      else if (digit < 0) acc = sub(acc, terms[t]!.table[(-digit - 1) >> 1]!, withT);
    }
  }
  return acc;
}

/** Signed base-2^c digits of k (each in [−2^(c−1), 2^(c−1)]), least significant first. */
function signedWindows(k: bigint, c: number, windows: number): Int32Array {
  const out = new Int32Array(windows);
  const mask = BigInt((1 << c) - 1);
  const half = 1 << (c - 1);
  let carry = 0;
  for (let j = 0; j < windows; j++) {
    let digit = Number(k & mask) + carry;
    k >>= BigInt(c);
    carry = digit > half ? 1 : 0;
    if (carry === 1) digit -= 1 << c;
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
    if (bucket !== undefined) running = running === undefined ? bucket : add(running, cached(bucket));
    if (running !== undefined) sum = sum === undefined ? running : add(sum, cached(running));
  }
  return sum;
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
    if (total !== undefined) for (let k = 0; k < c; k++) total = double(total, k === c - 1);
    const buckets: (Ext | undefined)[] = new Array(bucketCount).fill(undefined);
    for (let i = 0; i < n; i++) {
      const digit = digits[i]![j]!;
      if (digit === 0) continue;
      const at = Math.abs(digit) - 1;
      const bucket = buckets[at] ?? identity;
      buckets[at] = digit > 0 ? add(bucket, addends[i]!) : sub(bucket, addends[i]!);
    }
    const sum = sumBuckets(buckets);
    if (sum !== undefined) total = total === undefined ? sum : add(total, cached(sum));
  }
  return total ?? identity;
}

/**
 * Bases fixed for the life of the process (the Bulletproofs+ generators, G and H) with, for each, its multiples
 * 2^(c·j)·B for every window j: a sum over them needs no doublings and shares ONE set of buckets across all windows,
 * so a wide window pays off — about n·⌈254/c⌉ additions plus 2^c, against ⌈254/c⌉·(n + 2^c) for plain Pippenger.
 */
export const fixedWindow = 10;
const fixedWindows = Math.ceil(254 / fixedWindow) + 1;

/** The shifted multiples of one fixed base (about 260 doublings, once). */
export function fixedBaseTable(base: Ext): Cached[] {
  const table: Cached[] = [];
  let current = base;
  for (let j = 0; j < fixedWindows; j++) {
    table.push(cached(current));
    if (j < fixedWindows - 1) for (let k = 0; k < fixedWindow; k++) current = double(current, k === fixedWindow - 1);
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
      if (digit === 0) continue;
      const at = Math.abs(digit) - 1;
      const bucket = buckets[at] ?? identity;
      buckets[at] = digit > 0 ? add(bucket, table[j]!) : sub(bucket, table[j]!);
    }
  });
  return sumBuckets(buckets) ?? identity;
}
