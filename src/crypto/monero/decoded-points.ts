/**
 * Decoded public points, remembered by encoding. Ring members are earlier outputs that many rings reuse as decoys,
 * and a node checks each transaction twice (mempool, then block) and some points twice within one check (the kind's
 * decoding, then the CLSAG or range proof). Decoding costs a field square root, a subgroup check a full scalar
 * multiplication and Hp(P) another square root, so results are kept in bounded maps (oldest dropped first). Only
 * points that passed the strict checks of point.ts are stored; a refused encoding is decoded (and refused) again
 * each time. Each entry holds the point in vartime.ts's limb arithmetic (what the verifiers use) and, made on first
 * request, as a noble point (for callers on noble: the balance check, signing).
 */
import { hashToEcExt } from './hash-to-ec.ts';
import { decodePublicExt, decodeSubgroupExt, type Point } from './point.ts';
import { fromPoint, ownedExt, toPoint, type Ext } from './vartime.ts';
import { toHex } from '../../util/bytes.ts';

/** Entries per map: a few MB at most, small beside a node's other caches. */
const decodedPointsMax = 4096;

interface Decoded {
  readonly ext: Ext;
  point?: Point;
}

const publicPoints = new Map<string, Decoded>();
const subgroupPoints = new Map<string, Decoded>();
const hashedPoints = new Map<string, Decoded>();

function remember(map: Map<string, Decoded>, key: string, make: () => Ext): Decoded {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const value: Decoded = { ext: ownedExt(make()) };
  if (map.size >= decodedPointsMax) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

function asPoint(entry: Decoded): Point {
  return (entry.point ??= toPoint(entry.ext));
}

/** `decodePublicPoint`, remembered for valid encodings. */
export function cachedPublicPoint(bytes: Uint8Array, what: string): Point {
  return asPoint(remember(publicPoints, toHex(bytes), () => decodePublicExt(bytes, what)));
}

/** `decodePublicExt` (the same checks, the limb form), remembered for valid encodings. */
export function cachedPublicExt(bytes: Uint8Array, what: string): Ext {
  return remember(publicPoints, toHex(bytes), () => decodePublicExt(bytes, what)).ext;
}

/** `decodeSubgroupPoint`, remembered for valid encodings. */
export function cachedSubgroupPoint(bytes: Uint8Array, what: string): Point {
  return asPoint(remember(subgroupPoints, toHex(bytes), () => decodeSubgroupExt(bytes, what)));
}

/** `decodeSubgroupExt`, remembered for valid encodings. */
export function cachedSubgroupExt(bytes: Uint8Array, what: string): Ext {
  return remember(subgroupPoints, toHex(bytes), () => decodeSubgroupExt(bytes, what)).ext;
}

/** Records a point the caller made torsion-free and non-identity (V = C·8⁻¹ of a checked C) under its encoding. */
export function noteSubgroupPoint(bytes: Uint8Array, point: Point): void {
  const entry = remember(subgroupPoints, toHex(bytes), () => fromPoint(point));
  entry.point ??= point;
}

/** Hp(P) = hash_to_ec of a one-time key's encoding, remembered. */
export function cachedHashToEc(publicKey: Uint8Array): Point {
  return asPoint(remember(hashedPoints, toHex(publicKey), () => hashToEcExt(publicKey)));
}

/** `cachedHashToEc` in the limb form. */
export function cachedHashToEcExt(publicKey: Uint8Array): Ext {
  return remember(hashedPoints, toHex(publicKey), () => hashToEcExt(publicKey)).ext;
}

/** Forgets every remembered point (benchmarks measure rings never seen before with it). */
export function clearDecodedPoints(): void {
  publicPoints.clear();
  subgroupPoints.clear();
  hashedPoints.clear();
}
