/**
 * The limb field of the verification fast path (src/crypto/monero/field25519.ts) against the alternatives it was
 * chosen over, in one run: BigInt with the 2^255 ≡ 19 reduction the previous vartime.ts used, and TweetNaCl's
 * 16 limbs of 16 bits (2^256 ≡ 38), generated here in the same unrolled product-scanning form so only the limb
 * shape differs. Also one group doubling and addition (vartime.ts) against noble's Point. Prints ns per operation
 * (median of `runs` rounds of 200,000) and each ratio against BigInt.
 *
 * Run: npx tsx bench/field25519.ts [runs = 5]
 */
import { loadavg } from 'node:os';
import { ed25519 } from '@noble/curves/ed25519.js';
import { fe, feFromBigint, feToBigint, mul, sqr } from '../src/crypto/monero/field25519.ts';
import { add, cached, double, fromPoint } from '../src/crypto/monero/vartime.ts';

const runs = Number(process.argv[2] ?? 5);
const iterations = 200_000;
const p = (1n << 255n) - 19n;
const low255 = (1n << 255n) - 1n;

function red(a: bigint): bigint {
  const r = (a & low255) + 19n * (a >> 255n);
  return (r & low255) + 19n * (r >> 255n);
}

/** TweetNaCl's shape: 16×16-bit limbs, products above 2^256 folded by 38, one carry chain; unrolled like field25519.ts. */
function tweetnaclMul(): (o: Float64Array, a: Float64Array, b: Float64Array) => void {
  const n = 16;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`const a${i} = a[${i}], b${i} = b[${i}], e${i} = 38 * b[${i}];`);
  for (let k = 0; k < n; k++) {
    const terms = Array.from({ length: n }, (_, i) => (k - i >= 0 ? `a${i} * b${k - i}` : `a${i} * e${k - i + n}`));
    lines.push(`let c${k} = ${terms.join(' + ')};`);
  }
  lines.push('let t;');
  for (let k = 0; k < n; k++) lines.push(`t = Math.floor(c${k} / 65536); c${k} -= t * 65536; ${k < n - 1 ? `c${k + 1} += t;` : 'c0 += 38 * t;'}`);
  lines.push('t = Math.floor(c0 / 65536); c0 -= t * 65536; c1 += t;');
  for (let k = 0; k < n; k++) lines.push(`o[${k}] = c${k};`);
  return new Function('o', 'a', 'b', lines.join('\n')) as (o: Float64Array, a: Float64Array, b: Float64Array) => void;
}

function median(xs: number[]): number {
  return [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
}

function time(label: string, f: () => void, baseline?: number): number {
  for (let i = 0; i < iterations; i++) f();
  const ns: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) f();
    ns.push(((performance.now() - start) * 1e6) / iterations);
  }
  const result = median(ns);
  console.log(`${label.padEnd(52)} ${result.toFixed(0).padStart(6)} ns${baseline === undefined ? '' : `   ${(baseline / result).toFixed(2)}× vs BigInt`}`);
  return result;
}

console.log(`node ${process.version}, ${runs} rounds of ${iterations}, median; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const x = 0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdefn % p;
const y = p - 0xfedcba9876543210fedcba9876543210fedcba9876543210n;
let big = x;
const bigMul = time('field mul: BigInt, 2^255 ≡ 19 reduction (baseline)', () => {
  big = red(big * y);
});
const bigSqr = time('field sqr: BigInt', () => {
  big = red(big * big) | 1n;
});
const a = feFromBigint(x);
const b = feFromBigint(y);
time('field mul: 15×17-bit limbs (field25519.ts)', () => mul(a, a, b), bigMul);
time('field sqr: 15×17-bit limbs (field25519.ts)', () => sqr(a, a), bigSqr);
const mul16 = tweetnaclMul();
const a16 = new Float64Array(16);
const b16 = new Float64Array(16);
for (let i = 0; i < 16; i++) {
  a16[i] = Number((x >> BigInt(16 * i)) & 0xffffn);
  b16[i] = Number((y >> BigInt(16 * i)) & 0xffffn);
}
time('field mul: 16×16-bit limbs (TweetNaCl shape, unrolled)', () => mul16(a16, a16, b16), bigMul);
if (feToBigint(a) === 0n || feToBigint(fe()) !== 0n) throw new Error('bench: field values degenerate');

const Point = ed25519.Point;
let P = Point.BASE.multiply(12345n);
const Q = Point.BASE.multiply(67890n);
const nobleDouble = time('point double: noble Point', () => {
  P = P.double();
});
time('point add: noble Point', () => {
  P = P.add(Q);
});
let E = fromPoint(P);
const Qc = cached(fromPoint(Q));
time('point double: vartime.ts (limbs)', () => {
  E = double(E);
}, undefined);
time('point add: vartime.ts (limbs)', () => {
  E = add(E, Qc);
}, undefined);
void nobleDouble;
