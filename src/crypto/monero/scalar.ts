/**
 * Scalars of ed25519's prime-order subgroup, in Monero's conventions (Monero `crypto-ops.c`, `crypto.cpp`):
 * 32-byte little-endian encodings, `sc_check` (canonical: s < l), `sc_reduce32`, Monero's `hash_to_scalar`
 * (`cn_fast_hash` = Keccak-256 with the original 0x01 padding, reduced mod l) and the LEB128 `varint` that Monero
 * writes output indices with inside hashes.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '../../util/bytes.ts';
import { assert } from '../../errors.ts';
import { PrivacyEncodingError } from './errors.ts';

const scalarBytes = 32;
/** l = 2^252 + 27742317777372353535851937790883648493, the order of the prime subgroup. */
export const groupOrder: bigint = ed25519.Point.Fn.ORDER;

export function mod(a: bigint): bigint {
  const r = a % groupOrder;
  return r < 0n ? r + groupOrder : r;
}

export function invertScalar(a: bigint): bigint {
  if (mod(a) === 0n) throw new PrivacyEncodingError('cannot invert the zero scalar');
  return ed25519.Point.Fn.inv(mod(a));
}

/** Inverts every scalar with one inversion (Montgomery's trick); all must be non-zero. */
export function invertScalars(values: readonly bigint[]): bigint[] {
  const prefix: bigint[] = new Array(values.length);
  let acc = 1n;
  for (let i = 0; i < values.length; i++) {
    prefix[i] = acc;
    acc = mod(acc * values[i]!);
  }
  let inv = invertScalar(acc);
  const out: bigint[] = new Array(values.length);
  for (let i = values.length - 1; i >= 0; i--) {
    out[i] = mod(inv * prefix[i]!);
    inv = mod(inv * values[i]!);
  }
  return out;
}

/** 8⁻¹ mod l: Monero stores D, proof points and V multiplied by it so that verifiers can clear torsion with ×8. */
export const invEight: bigint = invertScalar(8n);

export function encodeScalar(s: bigint): Uint8Array {
  return numberToBytesLE(mod(s), scalarBytes);
}

/** `sc_check`: true when the 32 bytes are a canonical scalar (< l). */
export function isCanonicalScalar(bytes: Uint8Array): boolean {
  return bytes.length === scalarBytes && bytesToNumberLE(bytes) < groupOrder;
}

/** Strict decoding: exactly 32 bytes, value < l. Non-canonical scalars would make signatures malleable. */
export function decodeScalar(bytes: Uint8Array, what = 'scalar'): bigint {
  if (bytes.length !== scalarBytes) throw new PrivacyEncodingError(`${what}: got ${bytes.length} bytes, expected 32`);
  const s = bytesToNumberLE(bytes);
  if (s >= groupOrder) throw new PrivacyEncodingError(`${what}: not canonical (≥ l)`);
  return s;
}

/** `sc_reduce32`: any 32 bytes, read little-endian, reduced mod l. */
export function reduceScalar32(bytes: Uint8Array): bigint {
  return mod(bytesToNumberLE(bytes));
}

/** Monero `cn_fast_hash`: Keccak-256 with the original padding (not SHA3-256). */
export function fastHash(...parts: readonly Uint8Array[]): Uint8Array {
  return keccak_256(parts.length === 1 ? parts[0]! : concatBytes(...parts));
}

/** Monero `hash_to_scalar` (Hs): keccak of the concatenated parts, reduced mod l. */
export function hashToScalar(...parts: readonly Uint8Array[]): bigint {
  return reduceScalar32(fastHash(...parts));
}

/** Monero `tools::write_varint`: LEB128, 7 bits a byte, high bit set on all but the last. */
export function encodeVarint(n: number | bigint): Uint8Array {
  let v = BigInt(n);
  if (v < 0n) throw new PrivacyEncodingError(`varint: got ${v}, expected a non-negative integer`);
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

/** A 32-byte field holding an ASCII domain string, zero-padded (how Monero keys CLSAG hashes). */
export function paddedDomain(ascii: string): Uint8Array {
  const out = new Uint8Array(32);
  out.set(new TextEncoder().encode(ascii));
  return out;
}

/** A source of uniformly random bytes, injected by the caller (docs/style.md habit 7). */
export type RandomBytes = (length: number) => Uint8Array;

/**
 * Monero `random32_unbiased`: draw 32 bytes until the value is below 15·l (the largest multiple of l that fits in
 * 256 bits), reduce, and redraw zero. Kept draw for draw so the test RNG reproduces Monero's vectors.
 */
export function randomScalar(random: RandomBytes): bigint {
  const limit = 15n * groupOrder;
  for (let attempt = 0; attempt < 1024; attempt++) {
    const v = bytesToNumberLE(random(scalarBytes));
    if (v >= limit) continue;
    const s = mod(v);
    if (s !== 0n) return s;
  }
  // 1024 rejections in a row has probability < 2^-3000: only a broken random source gets here.
  assert(false, 'random source returned 1024 unusable draws');
}
