/**
 * Pedersen commitments in Monero's RingCT form (note §1.9): C = mask·G + amount·H, where the second generator
 * H = 8·decompress(keccak(encode(G))) = 8b655970…1f94 has no known discrete log to G. Public amounts (coinbase,
 * transparent coins a shield brought in) enter rings as zeroCommit(a) = 1·G + a·H. Amounts are u64: a range proof
 * (bulletproofs-plus/) shows each hidden one is below 2^64.
 */
import { PrivacyEncodingError } from './errors.ts';
import { G, Point, decodePoint, mulBase, mulEight, mulPublic, mulSecret } from './point.ts';
import { fastHash, mod } from './scalar.ts';

/** Monero's H: 8·decompress(keccak(G)). */
export const H: Point = mulEight(decodePoint(fastHash(G.toBytes()), 'H seed'));

export const amountMax = (1n << 64n) - 1n;

export function assertAmount(amount: bigint): bigint {
  if (amount < 0n || amount > amountMax) throw new PrivacyEncodingError(`amount: got ${amount}, expected 0 ≤ amount < 2^64`);
  return amount;
}

/** mask·G + amount·H. The mask is secret (constant-time); the amount term is constant-time too unless it is 0. */
export function commit(mask: bigint, amount: bigint): Point {
  assertAmount(amount);
  const masked = mod(mask) === 0n ? Point.ZERO : mulBase(mask);
  return amount === 0n ? masked : masked.add(mulSecret(H, amount));
}

/** 1·G + amount·H: the commitment of a public amount (Monero `zeroCommit`). */
export function zeroCommit(amount: bigint): Point {
  assertAmount(amount);
  return G.add(mulPublic(H, amount));
}

