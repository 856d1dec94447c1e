/**
 * Weft's proof of work (docs/design.md "Consensus", docs/consensus.md "Proof of work"), on @noble/hashes BLAKE3 — the reference
 * that the Wasm and WGSL kernels must match bit for bit:
 *
 *   prePowHash = BLAKE3(header bytes without the nonce)
 *   powInput   = prePowHash (32) || 24 zero bytes || nonce (u64 little-endian)   — one 64-byte BLAKE3 block
 *   blockHash  = BLAKE3(powInput), valid iff it is ≤ target as a 256-bit big-endian integer
 *
 * Targets travel in headers as Bitcoin's 32-bit compact "bits" (exponent byte + 23-bit mantissa + sign bit); here
 * only the canonical encoding of a positive target is valid. Work per block is Kaspa's calc_work, 2^256/(target+1).
 */
import { blake3 } from '../crypto/blake3.ts';
import { DecodeError } from '../errors.ts';
import { encodePrePowHeader, type BlockHeader } from '../codec/header.ts';
import { bytesToBigIntBE } from '../util/bytes.ts';

export const prePowHashBytes = 32;
const powInputBytes = 64;
/** The nonce sits in message words 14–15 (bytes 56..63): the first seven G steps of round one are per-job. */
export const powNonceOffsetBytes = 56;
export const targetMax = (1n << 256n) - 1n;
const two256 = 1n << 256n;
const u64Max = (1n << 64n) - 1n;

/** Bits that are not the canonical compact encoding of a target in 1..2^256-1 (or a target with no encoding). */
export class InvalidBitsError extends DecodeError {}

export function prePowHash(h: BlockHeader): Uint8Array {
  return blake3(encodePrePowHeader(h));
}

export function powInput(prePow: Uint8Array, nonce: bigint): Uint8Array {
  if (prePow.length !== prePowHashBytes) {
    throw new DecodeError(`prePowHash: expected ${prePowHashBytes} bytes, got ${prePow.length}`);
  }
  if (nonce < 0n || nonce > u64Max) throw new DecodeError(`nonce: expected a u64, got ${nonce}`);
  const input = new Uint8Array(powInputBytes);
  input.set(prePow, 0);
  new DataView(input.buffer).setBigUint64(powNonceOffsetBytes, nonce, true);
  return input;
}

export function powHash(prePow: Uint8Array, nonce: bigint): Uint8Array {
  return blake3(powInput(prePow, nonce));
}

/** A block's id: its PoW hash. */
export function blockHash(h: BlockHeader): Uint8Array {
  return powHash(prePowHash(h), h.nonce);
}

export function hashMeetsTarget(hash: Uint8Array, target: bigint): boolean {
  return bytesToBigIntBE(hash) <= target;
}

/**
 * The first 32-bit word of a target, for a miner's pre-filter: a hash whose first four bytes (big-endian) exceed
 * this cannot meet the target; one at or below it must still be checked in full with hashMeetsTarget.
 */
export function targetFirstWord(target: bigint): number {
  return Number(target >> 224n);
}

/** Bitcoin's SetCompact, refusing what Bitcoin tolerates: negative, zero, overflowing and non-canonical bits. */
export function compactToTarget(bits: number): bigint {
  if (!Number.isInteger(bits) || bits < 0 || bits > 0xffffffff) {
    throw new InvalidBitsError(`bits: expected a u32, got ${bits}`);
  }
  const size = bits >>> 24;
  const mantissa = bits & 0x007fffff;
  const hex = `0x${bits.toString(16).padStart(8, '0')}`;
  if ((bits & 0x00800000) !== 0) throw new InvalidBitsError(`bits ${hex}: sign bit set (negative target)`);
  if (mantissa === 0) throw new InvalidBitsError(`bits ${hex}: zero target, expected a positive one`);
  const target = size <= 3 ? BigInt(mantissa >>> (8 * (3 - size))) : BigInt(mantissa) << BigInt(8 * (size - 3));
  if (target > targetMax) throw new InvalidBitsError(`bits ${hex}: target overflows 256 bits`);
  if (target === 0n || targetToCompact(target) !== bits) {
    throw new InvalidBitsError(`bits ${hex}: non-canonical encoding`);
  }
  return target;
}

/** Bitcoin's GetCompact: the canonical bits of a target in 1..2^256-1, rounding the target down to 3 bytes. */
export function targetToCompact(target: bigint): number {
  if (target <= 0n || target > targetMax) {
    throw new InvalidBitsError(`target: expected 1..2^256-1, got ${target}`);
  }
  let size = Math.ceil(target.toString(16).length / 2);
  let mantissa = size <= 3 ? Number(target) << (8 * (3 - size)) : Number(target >> BigInt(8 * (size - 3)));
  if ((mantissa & 0x00800000) !== 0) {
    mantissa >>>= 8;
    size += 1;
  }
  return ((size << 24) | mantissa) >>> 0;
}

/** Expected hashes to find a block at this target: ⌊2^256 / (target + 1)⌋ (Kaspa's calc_work). */
export function workFromTarget(target: bigint): bigint {
  if (target < 0n || target > targetMax) throw new InvalidBitsError(`target: expected 0..2^256-1, got ${target}`);
  return two256 / (target + 1n);
}

/** The easiest (largest) target whose work is at least `work`: ⌊2^256 / work⌋ − 1, clamped to 1..2^256-1. */
export function targetFromWork(work: bigint): bigint {
  if (work <= 1n) return targetMax;
  const target = two256 / work - 1n;
  return target < 1n ? 1n : target;
}

/**
 * The API's `difficulty`: ⌊maxTarget / target⌋ (docs/design.md "Consensus"). A JSON number, so exact only below 2^53; with
 * maxTarget = 2^255-1 it is about half the expected hashes per block.
 */
export function difficultyFromTarget(target: bigint, maxTarget: bigint): number {
  if (target <= 0n) throw new InvalidBitsError(`target: expected a positive target, got ${target}`);
  return Number(maxTarget / target);
}

export interface NonceSearchResult {
  /** The first winning nonce in range order, or null. */
  readonly nonce: bigint | null;
  /** Nonces hashed, the winner included. */
  readonly hashes: number;
}

/**
 * The reference nonce search: tries nonceStart, nonceStart+1, … (wrapping at 2^64) for nonceCount nonces. Slow
 * (one noble BLAKE3 call per nonce, ~0.14 M/s): for tests, genesis grinding and checking the fast kernels.
 */
export function searchNonce(prePow: Uint8Array, target: bigint, nonceStart: bigint, nonceCount: number): NonceSearchResult {
  const input = powInput(prePow, nonceStart);
  const view = new DataView(input.buffer);
  for (let i = 0; i < nonceCount; i++) {
    const nonce = (nonceStart + BigInt(i)) & u64Max;
    view.setBigUint64(powNonceOffsetBytes, nonce, true);
    if (hashMeetsTarget(blake3(input), target)) return { nonce, hashes: i + 1 };
  }
  return { nonce: null, hashes: nonceCount };
}
