/**
 * GF(2^255 − 19), the ed25519 base field, on fixed limbs for the variable-time verification path (vartime.ts):
 * 15 limbs of 17 bits in a Float64Array (2^255 = 2^(15·17), so the wrap-around is exactly ×19). Every limb product
 * is below 2^42 and a product's coefficient sums at most 15 of them times 19, under 2^51: exact in a double, so
 * multiplication needs no splitting and V8 runs it as straight-line float code: `npx tsx bench/field25519.ts`
 * measured (quiet box) a multiplication in 104 ns and a squaring in 76 ns against 268 and 291 ns for BigInt with
 * the reduction specialised to 2^255 − 19 that vartime.ts used before, and 144 ns for TweetNaCl's 16×16-bit limbs
 * unrolled the same way (256 products instead of 225; docs/performance.md).
 *
 * Bounds, kept by every caller: inputs of `mul`/`sqr` have limbs of magnitude below 2^21; their outputs are
 * "carried" (limbs in [0, 2^18)); `add` of two carried values and `sub` (which adds 8p) of two carried values stay
 * below 2^21. Values are reduced to [0, p) only by `canonical`, before encoding, comparing or reading a parity.
 * Nothing here is constant-time: only public data (signatures, proofs, ring members) goes through it.
 */

/** One field element: 15 limbs, value Σ limb[i]·2^(17·i) (mod p). */
export type Fe = Float64Array<ArrayBuffer>;

export const limbCount = 15;
const limbBase = 131072;
const limbInverse = 1 / limbBase;
/** 8p in limbs (p = 2^17 − 19 + Σ (2^17 − 1)·2^(17i)), added in `sub` so limbs stay non-negative. */
const eightP = Float64Array.from({ length: limbCount }, (_, i) => 8 * (i === 0 ? limbBase - 19 : limbBase - 1));
const p = (1n << 255n) - 19n;

/**
 * Elements are views into shared slabs: a Float64Array of 15 (120 bytes) is above V8's on-heap limit for typed
 * arrays (64 bytes), and each one with its own backing store cost about 1 µs to allocate here against 0.07 µs for a
 * view; the tables and scratch values of one CLSAG round need a few hundred. A slab lives while any of its views
 * does, so whoever keeps points for long (decoded-points.ts) copies them into storage of their own (vartime.ts
 * `ownedExt`).
 */
const slabElements = 128;
let slab = new Float64Array(slabElements * limbCount);
let slabUsed = 0;

export function fe(): Fe {
  if (slabUsed === slabElements) {
    slab = new Float64Array(slabElements * limbCount);
    slabUsed = 0;
  }
  const at = limbCount * slabUsed++;
  return slab.subarray(at, at + limbCount);
}

/** A copy of a in a new element. */
export function feCopy(a: Fe): Fe {
  const o = fe();
  o.set(a);
  return o;
}

export function feFromBigint(x: bigint): Fe {
  let v = ((x % p) + p) % p;
  const o = fe();
  for (let i = 0; i < limbCount; i++) {
    o[i] = Number(v & 0x1ffffn);
    v >>= 17n;
  }
  return o;
}

/** The value in [0, p). */
export function feToBigint(a: Fe): bigint {
  const c = fe();
  canonical(c, a);
  let v = 0n;
  for (let i = limbCount - 1; i >= 0; i--) v = (v << 17n) | BigInt(c[i]!);
  return v;
}

export function add(o: Fe, a: Fe, b: Fe): void {
  for (let i = 0; i < limbCount; i++) o[i] = a[i]! + b[i]!;
}

/** a − b + 8p: non-negative limbs for carried b. */
export function sub(o: Fe, a: Fe, b: Fe): void {
  for (let i = 0; i < limbCount; i++) o[i] = a[i]! - b[i]! + eightP[i]!;
}

/** One carry pass: limbs into [0, 2^17) (limb 1 may keep a small excess), the top carry folded back as ×19. */
export function carry(o: Fe, a: Fe): void {
  let c = 0;
  for (let i = 0; i < limbCount; i++) {
    const v = a[i]! + c;
    c = Math.floor(v * limbInverse);
    o[i] = v - c * limbBase;
  }
  const v0 = o[0]! + 19 * c;
  c = Math.floor(v0 * limbInverse);
  o[0] = v0 - c * limbBase;
  o[1] = o[1]! + c;
}

/** The unique representative in [0, p), limbs in [0, 2^17). */
export function canonical(o: Fe, a: Fe): void {
  carry(o, a);
  carry(o, o);
  carry(o, o);
  // Now 0 ≤ value < 2^255 with every limb below 2^17; subtract p once when value + 19 reaches 2^255.
  let c = 19;
  for (let i = 0; i < limbCount; i++) c = Math.floor((o[i]! + c) * limbInverse);
  if (c === 0) return;
  c = 19;
  for (let i = 0; i < limbCount; i++) {
    const v = o[i]! + c;
    c = Math.floor(v * limbInverse);
    o[i] = v - c * limbBase;
  }
}

const scratch = fe();

export function isZero(a: Fe): boolean {
  canonical(scratch, a);
  for (let i = 0; i < limbCount; i++) if (scratch[i] !== 0) return false;
  return true;
}

export function equals(a: Fe, b: Fe): boolean {
  const d = fe();
  sub(d, a, b);
  return isZero(d);
}

/** The low bit of the canonical value: the "sign" of an ed25519 x coordinate. */
export function isOdd(a: Fe): boolean {
  canonical(scratch, a);
  return (scratch[0]! & 1) === 1;
}

/** The little-endian 255-bit value of 32 bytes, the top bit ignored (not reduced: may be ≥ p). */
export function feFromBytes(bytes: Uint8Array): Fe {
  const o = fe();
  let acc = 0;
  let bits = 0;
  let limb = 0;
  for (let i = 0; i < 32 && limb < limbCount; i++) {
    acc += (i === 31 ? bytes[i]! & 0x7f : bytes[i]!) * 2 ** bits;
    bits += 8;
    if (bits >= 17) {
      o[limb++] = acc % limbBase;
      acc = Math.floor(acc * limbInverse);
      bits -= 17;
    }
  }
  return o;
}

/** 32 little-endian bytes of the canonical value (bit 255 clear). */
export function feToBytes(a: Fe): Uint8Array {
  const c = fe();
  canonical(c, a);
  const out = new Uint8Array(32);
  let acc = 0;
  let bits = 0;
  let byte = 0;
  for (let i = 0; i < limbCount; i++) {
    acc += c[i]! * 2 ** bits;
    bits += 17;
    while (bits >= 8) {
      out[byte++] = acc % 256;
      acc = Math.floor(acc / 256);
      bits -= 8;
    }
  }
  out[31] = acc;
  return out;
}

/** True when the bytes' 255-bit value (top bit ignored) is below p: the strict decoders' "y < p". */
export function isCanonicalBytes(bytes: Uint8Array): boolean {
  const a = feFromBytes(bytes);
  const c = fe();
  canonical(c, a);
  for (let i = 0; i < limbCount; i++) if (c[i] !== a[i]) return false;
  return true;
}

// a·b and a², fully unrolled (product scanning; e_j = 19·b_j folds the coefficients above 2^255 back).
export function mul(o: Fe, a: Fe, b: Fe): void {
  const a0 = a[0]!, a1 = a[1]!, a2 = a[2]!, a3 = a[3]!, a4 = a[4]!, a5 = a[5]!, a6 = a[6]!, a7 = a[7]!, a8 = a[8]!, a9 = a[9]!, a10 = a[10]!, a11 = a[11]!, a12 = a[12]!, a13 = a[13]!, a14 = a[14]!;
  const b0 = b[0]!, b1 = b[1]!, b2 = b[2]!, b3 = b[3]!, b4 = b[4]!, b5 = b[5]!, b6 = b[6]!, b7 = b[7]!, b8 = b[8]!, b9 = b[9]!, b10 = b[10]!, b11 = b[11]!, b12 = b[12]!, b13 = b[13]!, b14 = b[14]!;
  const e1 = 19 * b1, e2 = 19 * b2, e3 = 19 * b3, e4 = 19 * b4, e5 = 19 * b5, e6 = 19 * b6, e7 = 19 * b7, e8 = 19 * b8, e9 = 19 * b9, e10 = 19 * b10, e11 = 19 * b11, e12 = 19 * b12, e13 = 19 * b13, e14 = 19 * b14;
  let c0 = a0 * b0 + a1 * e14 + a2 * e13 + a3 * e12 + a4 * e11 + a5 * e10 + a6 * e9 + a7 * e8 + a8 * e7 + a9 * e6 + a10 * e5 + a11 * e4 + a12 * e3 + a13 * e2 + a14 * e1;
  let c1 = a0 * b1 + a1 * b0 + a2 * e14 + a3 * e13 + a4 * e12 + a5 * e11 + a6 * e10 + a7 * e9 + a8 * e8 + a9 * e7 + a10 * e6 + a11 * e5 + a12 * e4 + a13 * e3 + a14 * e2;
  let c2 = a0 * b2 + a1 * b1 + a2 * b0 + a3 * e14 + a4 * e13 + a5 * e12 + a6 * e11 + a7 * e10 + a8 * e9 + a9 * e8 + a10 * e7 + a11 * e6 + a12 * e5 + a13 * e4 + a14 * e3;
  let c3 = a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0 + a4 * e14 + a5 * e13 + a6 * e12 + a7 * e11 + a8 * e10 + a9 * e9 + a10 * e8 + a11 * e7 + a12 * e6 + a13 * e5 + a14 * e4;
  let c4 = a0 * b4 + a1 * b3 + a2 * b2 + a3 * b1 + a4 * b0 + a5 * e14 + a6 * e13 + a7 * e12 + a8 * e11 + a9 * e10 + a10 * e9 + a11 * e8 + a12 * e7 + a13 * e6 + a14 * e5;
  let c5 = a0 * b5 + a1 * b4 + a2 * b3 + a3 * b2 + a4 * b1 + a5 * b0 + a6 * e14 + a7 * e13 + a8 * e12 + a9 * e11 + a10 * e10 + a11 * e9 + a12 * e8 + a13 * e7 + a14 * e6;
  let c6 = a0 * b6 + a1 * b5 + a2 * b4 + a3 * b3 + a4 * b2 + a5 * b1 + a6 * b0 + a7 * e14 + a8 * e13 + a9 * e12 + a10 * e11 + a11 * e10 + a12 * e9 + a13 * e8 + a14 * e7;
  let c7 = a0 * b7 + a1 * b6 + a2 * b5 + a3 * b4 + a4 * b3 + a5 * b2 + a6 * b1 + a7 * b0 + a8 * e14 + a9 * e13 + a10 * e12 + a11 * e11 + a12 * e10 + a13 * e9 + a14 * e8;
  let c8 = a0 * b8 + a1 * b7 + a2 * b6 + a3 * b5 + a4 * b4 + a5 * b3 + a6 * b2 + a7 * b1 + a8 * b0 + a9 * e14 + a10 * e13 + a11 * e12 + a12 * e11 + a13 * e10 + a14 * e9;
  let c9 = a0 * b9 + a1 * b8 + a2 * b7 + a3 * b6 + a4 * b5 + a5 * b4 + a6 * b3 + a7 * b2 + a8 * b1 + a9 * b0 + a10 * e14 + a11 * e13 + a12 * e12 + a13 * e11 + a14 * e10;
  let c10 = a0 * b10 + a1 * b9 + a2 * b8 + a3 * b7 + a4 * b6 + a5 * b5 + a6 * b4 + a7 * b3 + a8 * b2 + a9 * b1 + a10 * b0 + a11 * e14 + a12 * e13 + a13 * e12 + a14 * e11;
  let c11 = a0 * b11 + a1 * b10 + a2 * b9 + a3 * b8 + a4 * b7 + a5 * b6 + a6 * b5 + a7 * b4 + a8 * b3 + a9 * b2 + a10 * b1 + a11 * b0 + a12 * e14 + a13 * e13 + a14 * e12;
  let c12 = a0 * b12 + a1 * b11 + a2 * b10 + a3 * b9 + a4 * b8 + a5 * b7 + a6 * b6 + a7 * b5 + a8 * b4 + a9 * b3 + a10 * b2 + a11 * b1 + a12 * b0 + a13 * e14 + a14 * e13;
  let c13 = a0 * b13 + a1 * b12 + a2 * b11 + a3 * b10 + a4 * b9 + a5 * b8 + a6 * b7 + a7 * b6 + a8 * b5 + a9 * b4 + a10 * b3 + a11 * b2 + a12 * b1 + a13 * b0 + a14 * e14;
  let c14 = a0 * b14 + a1 * b13 + a2 * b12 + a3 * b11 + a4 * b10 + a5 * b9 + a6 * b8 + a7 * b7 + a8 * b6 + a9 * b5 + a10 * b4 + a11 * b3 + a12 * b2 + a13 * b1 + a14 * b0;
  let t: number;
  t = Math.floor(c0 * limbInverse); c0 -= t * limbBase; c1 += t;
  t = Math.floor(c1 * limbInverse); c1 -= t * limbBase; c2 += t;
  t = Math.floor(c2 * limbInverse); c2 -= t * limbBase; c3 += t;
  t = Math.floor(c3 * limbInverse); c3 -= t * limbBase; c4 += t;
  t = Math.floor(c4 * limbInverse); c4 -= t * limbBase; c5 += t;
  t = Math.floor(c5 * limbInverse); c5 -= t * limbBase; c6 += t;
  t = Math.floor(c6 * limbInverse); c6 -= t * limbBase; c7 += t;
  t = Math.floor(c7 * limbInverse); c7 -= t * limbBase; c8 += t;
  t = Math.floor(c8 * limbInverse); c8 -= t * limbBase; c9 += t;
  t = Math.floor(c9 * limbInverse); c9 -= t * limbBase; c10 += t;
  t = Math.floor(c10 * limbInverse); c10 -= t * limbBase; c11 += t;
  t = Math.floor(c11 * limbInverse); c11 -= t * limbBase; c12 += t;
  t = Math.floor(c12 * limbInverse); c12 -= t * limbBase; c13 += t;
  t = Math.floor(c13 * limbInverse); c13 -= t * limbBase; c14 += t;
  t = Math.floor(c14 * limbInverse); c14 -= t * limbBase; c0 += 19 * t;
  t = Math.floor(c0 * limbInverse); c0 -= t * limbBase; c1 += t;
  o[0] = c0; o[1] = c1; o[2] = c2; o[3] = c3; o[4] = c4; o[5] = c5; o[6] = c6; o[7] = c7; o[8] = c8; o[9] = c9; o[10] = c10; o[11] = c11; o[12] = c12; o[13] = c13; o[14] = c14;
}

/** a² (about half the products of `mul`: each cross term once, doubled). */
export function sqr(o: Fe, a: Fe): void {
  const a0 = a[0]!, a1 = a[1]!, a2 = a[2]!, a3 = a[3]!, a4 = a[4]!, a5 = a[5]!, a6 = a[6]!, a7 = a[7]!, a8 = a[8]!, a9 = a[9]!, a10 = a[10]!, a11 = a[11]!, a12 = a[12]!, a13 = a[13]!, a14 = a[14]!;
  const d0 = 2 * a0, d1 = 2 * a1, d2 = 2 * a2, d3 = 2 * a3, d4 = 2 * a4, d5 = 2 * a5, d6 = 2 * a6, d7 = 2 * a7, d8 = 2 * a8, d9 = 2 * a9, d10 = 2 * a10, d11 = 2 * a11, d12 = 2 * a12, d13 = 2 * a13;
  const e8 = 19 * a8, e9 = 19 * a9, e10 = 19 * a10, e11 = 19 * a11, e12 = 19 * a12, e13 = 19 * a13, e14 = 19 * a14;
  let c0 = a0 * a0 + d1 * e14 + d2 * e13 + d3 * e12 + d4 * e11 + d5 * e10 + d6 * e9 + d7 * e8;
  let c1 = d0 * a1 + d2 * e14 + d3 * e13 + d4 * e12 + d5 * e11 + d6 * e10 + d7 * e9 + a8 * e8;
  let c2 = d0 * a2 + a1 * a1 + d3 * e14 + d4 * e13 + d5 * e12 + d6 * e11 + d7 * e10 + d8 * e9;
  let c3 = d0 * a3 + d1 * a2 + d4 * e14 + d5 * e13 + d6 * e12 + d7 * e11 + d8 * e10 + a9 * e9;
  let c4 = d0 * a4 + d1 * a3 + a2 * a2 + d5 * e14 + d6 * e13 + d7 * e12 + d8 * e11 + d9 * e10;
  let c5 = d0 * a5 + d1 * a4 + d2 * a3 + d6 * e14 + d7 * e13 + d8 * e12 + d9 * e11 + a10 * e10;
  let c6 = d0 * a6 + d1 * a5 + d2 * a4 + a3 * a3 + d7 * e14 + d8 * e13 + d9 * e12 + d10 * e11;
  let c7 = d0 * a7 + d1 * a6 + d2 * a5 + d3 * a4 + d8 * e14 + d9 * e13 + d10 * e12 + a11 * e11;
  let c8 = d0 * a8 + d1 * a7 + d2 * a6 + d3 * a5 + a4 * a4 + d9 * e14 + d10 * e13 + d11 * e12;
  let c9 = d0 * a9 + d1 * a8 + d2 * a7 + d3 * a6 + d4 * a5 + d10 * e14 + d11 * e13 + a12 * e12;
  let c10 = d0 * a10 + d1 * a9 + d2 * a8 + d3 * a7 + d4 * a6 + a5 * a5 + d11 * e14 + d12 * e13;
  let c11 = d0 * a11 + d1 * a10 + d2 * a9 + d3 * a8 + d4 * a7 + d5 * a6 + d12 * e14 + a13 * e13;
  let c12 = d0 * a12 + d1 * a11 + d2 * a10 + d3 * a9 + d4 * a8 + d5 * a7 + a6 * a6 + d13 * e14;
  let c13 = d0 * a13 + d1 * a12 + d2 * a11 + d3 * a10 + d4 * a9 + d5 * a8 + d6 * a7 + a14 * e14;
  let c14 = d0 * a14 + d1 * a13 + d2 * a12 + d3 * a11 + d4 * a10 + d5 * a9 + d6 * a8 + a7 * a7;
  let t: number;
  t = Math.floor(c0 * limbInverse); c0 -= t * limbBase; c1 += t;
  t = Math.floor(c1 * limbInverse); c1 -= t * limbBase; c2 += t;
  t = Math.floor(c2 * limbInverse); c2 -= t * limbBase; c3 += t;
  t = Math.floor(c3 * limbInverse); c3 -= t * limbBase; c4 += t;
  t = Math.floor(c4 * limbInverse); c4 -= t * limbBase; c5 += t;
  t = Math.floor(c5 * limbInverse); c5 -= t * limbBase; c6 += t;
  t = Math.floor(c6 * limbInverse); c6 -= t * limbBase; c7 += t;
  t = Math.floor(c7 * limbInverse); c7 -= t * limbBase; c8 += t;
  t = Math.floor(c8 * limbInverse); c8 -= t * limbBase; c9 += t;
  t = Math.floor(c9 * limbInverse); c9 -= t * limbBase; c10 += t;
  t = Math.floor(c10 * limbInverse); c10 -= t * limbBase; c11 += t;
  t = Math.floor(c11 * limbInverse); c11 -= t * limbBase; c12 += t;
  t = Math.floor(c12 * limbInverse); c12 -= t * limbBase; c13 += t;
  t = Math.floor(c13 * limbInverse); c13 -= t * limbBase; c14 += t;
  t = Math.floor(c14 * limbInverse); c14 -= t * limbBase; c0 += 19 * t;
  t = Math.floor(c0 * limbInverse); c0 -= t * limbBase; c1 += t;
  o[0] = c0; o[1] = c1; o[2] = c2; o[3] = c3; o[4] = c4; o[5] = c5; o[6] = c6; o[7] = c7; o[8] = c8; o[9] = c9; o[10] = c10; o[11] = c11; o[12] = c12; o[13] = c13; o[14] = c14;
}

/** a^(2^n). */
function sqrN(o: Fe, a: Fe, n: number): void {
  sqr(o, a);
  for (let i = 1; i < n; i++) sqr(o, o);
}

/** a^(2^250 − 1) and a^11, the common part of ref10's fe_invert and fe_pow22523 (250 squarings, 11 multiplications). */
function pow250(a: Fe): { z250: Fe; z11: Fe } {
  const z2 = fe();
  const z9 = fe();
  const z11 = fe();
  const t = fe();
  const z5 = fe();
  const z10 = fe();
  const z20 = fe();
  const z50 = fe();
  const z100 = fe();
  sqr(z2, a);
  sqrN(t, z2, 2);
  mul(z9, t, a);
  mul(z11, z9, z2);
  sqr(t, z11);
  mul(z5, t, z9); // 2^5 − 1
  sqrN(t, z5, 5);
  mul(z10, t, z5); // 2^10 − 1
  sqrN(t, z10, 10);
  mul(z20, t, z10);
  sqrN(t, z20, 20);
  mul(t, t, z20); // 2^40 − 1
  sqrN(t, t, 10);
  mul(z50, t, z10);
  sqrN(t, z50, 50);
  mul(z100, t, z50);
  sqrN(t, z100, 100);
  mul(t, t, z100); // 2^200 − 1
  sqrN(t, t, 50);
  mul(t, t, z50); // 2^250 − 1
  return { z250: t, z11 };
}

/** 1/a = a^(p − 2) = a^(2^255 − 21); a must be non-zero. */
export function invert(o: Fe, a: Fe): void {
  const { z250, z11 } = pow250(a);
  sqrN(z250, z250, 5);
  mul(o, z250, z11);
}

/** a^((p − 5)/8) = a^(2^252 − 3), the exponent of square roots over a ratio. */
export function powP58(o: Fe, a: Fe): void {
  const { z250 } = pow250(a);
  sqrN(z250, z250, 2);
  mul(o, z250, a);
}

/** √−1 = 2^((p − 1)/4). */
export const sqrtMinusOne: Fe = feFromBigint(19681161376707505956807079304988542015446066515923890162744021073123829784752n);

/**
 * √(u/v) when u/v is a square (x with v·x² = u, either root), else undefined: x = u·v³·(u·v⁷)^((p−5)/8), times √−1
 * when v·x² = −u (RFC 8032 §5.1.3). v = 0 gives undefined unless u = 0.
 */
export function sqrtRatio(u: Fe, v: Fe): Fe | undefined {
  const v3 = fe();
  const t = fe();
  const x = fe();
  sqr(v3, v);
  mul(v3, v3, v); // v³
  sqr(t, v3);
  mul(t, t, v); // v⁷
  mul(t, t, u); // u·v⁷
  powP58(t, t);
  mul(x, u, v3);
  mul(x, x, t);
  const check = fe();
  sqr(check, x);
  mul(check, check, v); // v·x²
  if (equals(check, u)) return x;
  const negU = fe();
  sub(negU, fe(), u);
  if (!equals(check, negU)) return undefined;
  mul(x, x, sqrtMinusOne);
  return x;
}
