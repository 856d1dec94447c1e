/**
 * Decoded public points, remembered by encoding. Ring members are earlier outputs that many rings reuse as decoys,
 * and a node checks each transaction twice (mempool, then block) and some points twice within one check (the kind's
 * decoding, then the CLSAG or range proof). Decoding costs a field square root, a subgroup check a full scalar
 * multiplication and Hp(P) another square root, together about a fifth of a CLSAG round here, so results are kept
 * in bounded maps (oldest dropped first). Only points that passed the strict checks of point.ts are stored; a
 * refused encoding is decoded (and refused) again each time.
 */
import { hashToEc } from './hash-to-ec.ts';
import { decodePublicPoint, decodeSubgroupPoint, type Point } from './point.ts';
import { toHex } from '../../util/bytes.ts';

/** Entries per map: a few MB at most, small beside a node's other caches. */
export const decodedPointsMax = 4096;

const publicPoints = new Map<string, Point>();
const subgroupPoints = new Map<string, Point>();
const hashedPoints = new Map<string, Point>();

function remember<T>(map: Map<string, T>, key: string, make: () => T): T {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  if (map.size >= decodedPointsMax) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/** `decodePublicPoint`, remembered for valid encodings. */
export function cachedPublicPoint(bytes: Uint8Array, what: string): Point {
  return remember(publicPoints, toHex(bytes), () => decodePublicPoint(bytes, what));
}

/** `decodeSubgroupPoint`, remembered for valid encodings. */
export function cachedSubgroupPoint(bytes: Uint8Array, what: string): Point {
  return remember(subgroupPoints, toHex(bytes), () => decodeSubgroupPoint(bytes, what));
}

/** Records a point the caller made torsion-free and non-identity (V = C·8⁻¹ of a checked C) under its encoding. */
export function noteSubgroupPoint(bytes: Uint8Array, point: Point): void {
  remember(subgroupPoints, toHex(bytes), () => point);
}

/** Hp(P) = hash_to_ec of a one-time key's encoding, remembered. */
export function cachedHashToEc(publicKey: Uint8Array): Point {
  return remember(hashedPoints, toHex(publicKey), () => hashToEc(publicKey));
}

/** Forgets every remembered point (benchmarks measure rings never seen before with it). */
export function clearDecodedPoints(): void {
  publicPoints.clear();
  subgroupPoints.clear();
  hashedPoints.clear();
}
