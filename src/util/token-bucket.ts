/**
 * The token bucket's arithmetic, shared by the RPC rate limits (src/auth/token-bucket.ts) and the per-peer allowances
 * of the p2p layer (src/p2p/token-bucket.ts). A bucket holds `fullUnits` units and gains `unitsPerMs` units a
 * millisecond; a token is as many units as the caller says. Units are integers (callers pick a unit so that their
 * rate is a whole number of units a millisecond), so "exactly 100 a minute" stays exact however the clock moves.
 */

export interface BucketState {
  units: number;
  /** The clock reading the units were last brought up to date at. */
  atMs: number;
}

/** Brings `bucket` up to `nowMs`. A clock that steps back refills nothing; a long absence refills at most to full. */
export function refillBucket(bucket: BucketState, nowMs: number, fullUnits: number, unitsPerMs: number): void {
  if (nowMs <= bucket.atMs) return;
  // Elapsed time past `fullUnits` ms cannot add more than full (unitsPerMs ≥ 1), and capping it keeps the product small.
  const elapsedMs = Math.min(nowMs - bucket.atMs, fullUnits);
  bucket.units = Math.min(fullUnits, bucket.units + elapsedMs * unitsPerMs);
  bucket.atMs = nowMs;
}

/** Takes `units` if the bucket holds that many; false (and nothing taken) otherwise. */
export function takeFromBucket(bucket: BucketState, units: number): boolean {
  if (bucket.units < units) return false;
  bucket.units -= units;
  return true;
}
