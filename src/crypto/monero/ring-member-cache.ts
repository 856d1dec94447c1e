/**
 * Decoded ring members, remembered: a ring member's one-time key and commitment are public outputs that many rings
 * reuse as decoys, and a node verifies each transaction twice (mempool, then block). Decoding a point costs a field
 * square root and Hp(P) another, about a fifth of a CLSAG round here, so both are kept per encoding in a bounded
 * map (oldest dropped first). Only points that passed the strict checks are stored; a refusal is recomputed.
 */
import { hashToEc } from './hash-to-ec.ts';
import { decodePublicPoint, type Point } from './point.ts';
import { toHex } from '../../util/bytes.ts';

/** Entries per map: 2 × 4096 × a few hundred bytes, far below a node's other caches. */
export const ringMemberCacheMax = 4096;

const publicPoints = new Map<string, Point>();
const hashedPoints = new Map<string, Point>();

function remember<T>(map: Map<string, T>, key: string, make: () => T): T {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  if (map.size >= ringMemberCacheMax) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/** `decodePublicPoint`, remembered for valid encodings. */
export function cachedPublicPoint(bytes: Uint8Array, what: string): Point {
  return remember(publicPoints, toHex(bytes), () => decodePublicPoint(bytes, what));
}

/** Hp(P) = hash_to_ec(P) of a one-time key's encoding, remembered. */
export function cachedHashToEc(publicKey: Uint8Array): Point {
  return remember(hashedPoints, toHex(publicKey), () => hashToEc(publicKey));
}

/** Forgets every remembered point (benchmarks measure cold rings with it). */
export function clearRingMemberCache(): void {
  publicPoints.clear();
  hashedPoints.clear();
}
