/**
 * Token-bucket rate limiting keyed by client identity (docs/auth.md "Rate limits"). A bucket holds up to `burst`
 * tokens and refills at `perMinute` tokens a minute; a request takes one token or is refused with the time until one
 * is back. The arithmetic is the shared one of src/util/token-bucket.ts, in integers (one token = rateLimitWindowMs
 * units, refill = perMinute units a millisecond) so that "exactly 100 a minute" stays exact however the clock moves.
 * The clock is a port: tests move time by hand.
 */
import type { Clock } from '../util/clock.ts';
import { refillBucket, takeFromBucket, type BucketState } from '../util/token-bucket.ts';
import { rateLimitBucketsMax, rateLimitWindowMs } from './auth-limits.ts';

export interface RatePolicy {
  /** Named in logs and the 429 body: 'unauthenticated', 'api_key', 'public_rpc', ... */
  readonly name: string;
  /** Sustained rate: tokens added per minute. */
  readonly perMinute: number;
  /** Bucket size: requests allowed at once from a full bucket. */
  readonly burst: number;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** X-RateLimit-Limit: the bucket size. */
  readonly limit: number;
  /** X-RateLimit-Remaining: whole tokens left after this request. */
  readonly remaining: number;
  /** X-RateLimit-Reset: Unix seconds at which the bucket is full again. */
  readonly resetSeconds: number;
  /** When refused: milliseconds until one token is back (Retry-After, rounded up to seconds). */
  readonly retryAfterMs: number;
  readonly policy: RatePolicy;
}

export interface RateLimiter {
  take(key: string, policy: RatePolicy): RateDecision;
  /** Buckets held (bounded by rateLimitBucketsMax). */
  size(): number;
}

export function createRateLimiter(options: { clock: Clock; bucketsMax?: number }): RateLimiter {
  const { clock } = options;
  const bucketsMax = options.bucketsMax ?? rateLimitBucketsMax;
  const unit = rateLimitWindowMs;
  // Map iteration order is insertion order: re-inserting on use keeps the least recently used first.
  const buckets = new Map<string, BucketState>();

  return {
    take(key, policy) {
      const now = clock.nowMs();
      const full = policy.burst * unit;
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        bucket = { units: full, atMs: now };
        if (buckets.size >= bucketsMax) buckets.delete(buckets.keys().next().value as string);
      } else {
        buckets.delete(key);
        refillBucket(bucket, now, full, policy.perMinute);
      }
      buckets.set(key, bucket);
      const allowed = takeFromBucket(bucket, unit);
      const fullInMs = Math.ceil((full - bucket.units) / policy.perMinute);
      return {
        allowed,
        limit: policy.burst,
        remaining: Math.floor(bucket.units / unit),
        resetSeconds: Math.ceil((now + fullInMs) / 1000),
        retryAfterMs: allowed ? 0 : Math.ceil((unit - bucket.units) / policy.perMinute),
        policy,
      };
    },
    size: () => buckets.size,
  };
}
